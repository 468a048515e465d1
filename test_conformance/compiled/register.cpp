// The compiled.* group (docs/compiled.md). Its cases run on the subgroups.* and media_block_io families: each
// compiled kernel keeps the argument names and meaning of the generated kernel of that family, so the same
// host code and host reference judge it. The group adds no family of its own.
#include "test_conformance/families.h"

namespace cts {

namespace {

void registerCompiledFamilies(Registry&) {}

}  // namespace

CTS_REGISTER_FAMILIES("compiled", registerCompiledFamilies);

}  // namespace cts
