//! AMD GCN3 assembly (HIP/LLVM `.s`). Parser under construction (issue #6).
