"""The Triton kernels frozen in spirv_new_assets/triton/, written as Triton users write them (the block-pointer
GEMM of the Intel backend's tutorial, the pointer-tensor GEMM of Triton's matrix-multiplication tutorial, a
row softmax, row reductions, a copy). Imported by generate.py only: needs the triton package.

Each kernel computes what a plain host loop states, so a case can judge it later:
  gemm_*     C[m][n] = sum_k A[m][k] * B[k][n], A M x K and B K x N row-major (fp16 or bf16), C fp32;
             program p computes the BLOCK_M x BLOCK_N tile of C that the grouped order below gives it
  softmax    out[r][c] = exp(x[r][c] - max_r) / sum_c exp(x[r][c] - max_r), one program a row
  row_sum    out[r] = sum_c x[r][c];  row_max: out[r] = max_c x[r][c]; one program a row
  copy       out[i] = x[i] for i < n_elements
"""

import triton
import triton.language as tl


@triton.jit
def _tile_of_program(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    # Grouped order: GROUP_M tile rows are walked column by column, so neighbouring programs share tiles of B.
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    programs_per_group = GROUP_M * num_pid_n
    first_pid_m = (pid // programs_per_group) * GROUP_M
    rows_of_group = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % programs_per_group) % rows_of_group)
    pid_n = (pid % programs_per_group) // rows_of_group
    return pid_m, pid_n


@triton.jit
def gemm_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = _tile_of_program(tl.program_id(axis=0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    a_tile = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                               offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_tile = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                               offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_tile, boundary_check=(0, 1))
        b = tl.load(b_tile, boundary_check=(0, 1))
        acc += tl.dot(a, b, out_dtype=tl.float32)
        a_tile = tl.advance(a_tile, (0, BLOCK_K))
        b_tile = tl.advance(b_tile, (BLOCK_K, 0))
    c_tile = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                               offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_tile, acc.to(c_ptr.type.element_ty), boundary_check=(0, 1))


@triton.jit
def gemm_pointers(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = _tile_of_program(tl.program_id(axis=0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rows[:, None] < M) & (ks[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(ks[:, None] < k_left) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def softmax(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=cols < n_cols, other=-float("inf"))
    shifted = x - tl.max(x, axis=0)
    e = tl.exp(shifted)
    tl.store(out_ptr + row * out_row_stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


@triton.jit
def row_sum(out_ptr, in_ptr, in_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@triton.jit
def row_max(out_ptr, in_ptr, in_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(out_ptr + row, tl.max(x, axis=0))


@triton.jit
def copy(out_ptr, in_ptr, n_elements, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(in_ptr + offsets, mask=offsets < n_elements), mask=offsets < n_elements)
