#include "reference_device/spirv/module.h"

namespace refdev::spirv {

LaunchResult launch(const Module& module, const std::string& kernel, const std::vector<ArgValue>& args,
                    const NDRange& range, const Profile& profile, const Faults& faults, unsigned threads) {
    return LaunchResult{false, "kernel '" + kernel + "': the interpreter is not complete yet"};
}

}  // namespace refdev::spirv
