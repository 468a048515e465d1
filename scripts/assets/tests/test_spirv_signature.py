"""scripts/assets/spirv_signature.py: kernel argument names and types read from assembled modules."""

import os
import subprocess
import tempfile
import unittest

from testing.common import SPIRV_AS

from assets import spirv_signature

KERNELS = r"""               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability ImageBasic
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %first "first"
               OpEntryPoint Kernel %second "second"
               OpName %out "out"
               OpName %tmp "tmp"
               OpName %n "n"
               OpName %wide "wide"
               OpName %img "img"
               OpName %xy "xy"
               OpName %scale "scale"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %v2uint = OpTypeVector %uint 2
     %img_ro = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
     %img_wo = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
     %ptr_cw = OpTypePointer CrossWorkgroup %uint
     %ptr_wg = OpTypePointer Workgroup %uint
    %first_t = OpTypeFunction %void %ptr_cw %ptr_wg %uint %ulong %img_ro
   %second_t = OpTypeFunction %void %img_wo %v2uint %float %uint
      %first = OpFunction %void None %first_t
        %out = OpFunctionParameter %ptr_cw
        %tmp = OpFunctionParameter %ptr_wg
          %n = OpFunctionParameter %uint
       %wide = OpFunctionParameter %ulong
        %img = OpFunctionParameter %img_ro
         %l1 = OpLabel
               OpReturn
               OpFunctionEnd
     %second = OpFunction %void None %second_t
      %dst_w = OpFunctionParameter %img_wo
         %xy = OpFunctionParameter %v2uint
      %scale = OpFunctionParameter %float
    %unnamed = OpFunctionParameter %uint
         %l2 = OpLabel
               OpReturn
               OpFunctionEnd
"""


class SpirvSignatureTest(unittest.TestCase):
    def assemble(self, text):
        with tempfile.TemporaryDirectory() as d:
            src, spv = os.path.join(d, "k.spvasm"), os.path.join(d, "k.spv")
            with open(src, "w") as f:
                f.write(text)
            subprocess.run([SPIRV_AS, "--target-env", "spv1.2", src, "-o", spv], check=True)
            with open(spv, "rb") as f:
                return f.read()

    def test_names_and_types_of_every_kernel(self):
        signatures = spirv_signature.module_signatures(self.assemble(KERNELS))
        self.assertEqual(signatures, {
            "first": [["out", "global_buffer"], ["tmp", "local_buffer"], ["n", "uint"], ["wide", "ulong"],
                      ["img", "image2d_ro"]],
            "second": [["", "image2d_wo"], ["xy", "uint2"], ["scale", "float"], ["", "uint"]]})
        self.assertEqual(spirv_signature.unnamed_arguments(signatures),
                         ["kernel second argument 0", "kernel second argument 3"])

    def test_a_file_that_is_not_spir_v_is_an_error(self):
        for data in (b"", b"\x03\x02\x23\x07" * 3, b"\x00" * 20, b"\x03\x02\x23\x07" + b"\x00" * 16 + b"\xff\xff\xff\xff"):
            with self.assertRaises(spirv_signature.SignatureError):
                spirv_signature.module_signatures(data)


if __name__ == "__main__":
    unittest.main()
