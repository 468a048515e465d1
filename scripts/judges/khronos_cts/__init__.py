"""The Khronos OpenCL CTS run on the reference device, with its offline compiler."""
