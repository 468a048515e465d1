// Benchmark kernel: the OpenCL C twin of loop.spvasm.
kernel void loop(global uint* out, uint n) {
    uint gid = (uint)get_global_id(0);
    uint acc = gid;
    float f = 0.0f;
    for (uint i = 0; i < n; ++i) {
        acc = acc * 1664525u + (i ^ gid);
        f = f * 0.5f + 1.0f;
    }
    out[get_global_id(0)] = acc + (uint)f;
}
