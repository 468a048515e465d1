// Lists the planted faults of the reference device (the same list REFDEV_FAULTS=list prints).
// usage: refdev_faults [--names]   (--names: one name per line, for scripts)
#include <cstdio>
#include <cstring>

#include "reference_device/faults.h"

int main(int argc, char** argv) {
    const bool names_only = argc > 1 && std::strcmp(argv[1], "--names") == 0;
    if (argc > 1 && !names_only) {
        std::fprintf(stderr, "usage: %s [--names]\n", argv[0]);
        return 2;
    }
    for (const refdev::FaultInfo& f : refdev::allFaults()) {
        if (names_only)
            std::printf("%s\n", f.name.c_str());
        else
            std::printf("%-40s %s\n", f.name.c_str(), f.description.c_str());
    }
    return 0;
}
