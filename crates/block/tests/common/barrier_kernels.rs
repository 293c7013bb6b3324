//! Fermi–Pascal SASS kernels with barriers in loops — a tiled loop and nvcc's reduction
//! tree — shared by `block`'s `barrier_phases.rs` and the facade's `block_soundness.rs`
//! (which includes this file by path).

/// A tiled loop: `for (t = 0; t < n; t++) { tile[tid] = a[…]; __syncthreads(); s +=
/// tile[…]; __syncthreads(); }` with `n` a kernel parameter (`c[0x0][0x148]`), guarded at
/// the top and tested at the bottom as nvcc rotates it.
pub const TILED: &str = "\
S2R R0, SR_TID.X ;
MOV R2, c[0x0][0x140] ;
MOV R3, c[0x0][0x144] ;
MOV R4, RZ ;
MOV R5, c[0x0][0x148] ;
ISETP.GE.AND P0, PT, R4, R5, PT ;
@P0 BRA DONE ;
LOOP:
SHL R6, R0, 0x2 ;
LDG.E R7, [R2] ;
STS [R6], R7 ;
BAR.SYNC 0x0 ;
LDS R8, [R6+0x4] ;
FADD R9, R9, R8 ;
BAR.SYNC 0x0 ;
IADD R4, R4, 0x1 ;
ISETP.LT.AND P0, PT, R4, R5, PT ;
@P0 BRA LOOP ;
DONE:
STG.E [R2], R9 ;
EXIT ;";

/// The reduction tree `buf[tid] = a[tid]; __syncthreads(); for (s = blockDim.x / 2; s > 0;
/// s >>= 1) { if (tid < s) buf[tid] += buf[tid + s]; __syncthreads(); }`: `prologue` stands
/// after the thread index and its offset (lines that set the buffer's address `R2:R3`, or
/// none), `block_dim` is the constant that holds `blockDim.x`.
pub fn reduction_tree(prologue: &str, block_dim: &str) -> String {
    format!(
        "\
S2R R0, SR_TID.X ;
SHL R1, R0, 0x2 ;
{prologue}LDG.E R6, [R2] ;
STS [R1], R6 ;
BAR.SYNC 0x0 ;
MOV R4, {block_dim} ;
SHR.U32 R4, R4, 0x1 ;
ISETP.EQ.AND P0, PT, R4, RZ, PT ;
@P0 BRA DONE ;
LOOP:
ISETP.GE.U32.AND P1, PT, R0, R4, PT ;
SSY JOIN ;
@P1 SYNC ;
IADD R7, R0, R4 ;
SHL R7, R7, 0x2 ;
LDS R8, [R7] ;
LDS R9, [R1] ;
FADD R9, R9, R8 ;
STS [R1], R9 ;
SYNC ;
JOIN:
BAR.SYNC 0x0 ;
SHR.U32 R4, R4, 0x1 ;
ISETP.NE.AND P0, PT, R4, RZ, PT ;
@P0 BRA LOOP ;
DONE:
EXIT ;"
    )
}
