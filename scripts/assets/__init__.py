"""The asset pipeline: generators, the SPIR-V module builder, the case index and the family descriptors."""
