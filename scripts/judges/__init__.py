"""Cross-checks of the suite's verdicts against other judges: offline compilers, real drivers, the Khronos CTS."""
