// Test main: --refdev-profile=NAME sets REFDEV_PROFILE before the first OpenCL call (the ICD reads it once at
// platform initialisation), so CTest can run the same tests per profile.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    const char* prefix = "--refdev-profile=";
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0)
            setenv("REFDEV_PROFILE", argv[i] + std::strlen(prefix), 1);
    return RUN_ALL_TESTS();
}
