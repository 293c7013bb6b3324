//! The opcodes that write predicate registers: compares, predicate logic and votes, the
//! source of divergent branches.

use super::Role::*;
use super::{op, OpcodeInfo};

/// Comparisons, predicate logic and votes: the writers of predicates.
pub(super) const PREDICATE_WRITES: &[OpcodeInfo] = &[
    op(
        "ISETP",
        b"FKMVTAH",
        PredicateWrite,
        "Integer compare, set predicates",
    ),
    op(
        "FSETP",
        b"FKMVTAH",
        PredicateWrite,
        "FP32 compare, set predicates",
    ),
    op(
        "DSETP",
        b"FKMVTAH",
        PredicateWrite,
        "FP64 compare, set predicates",
    ),
    op(
        "HSETP2",
        b"MVTAH",
        PredicateWrite,
        "Paired FP16 compare, set predicates",
    ),
    op(
        "PSETP",
        b"FKMVTAH",
        PredicateWrite,
        "Combine predicates, set predicates",
    ),
    op(
        "PLOP3",
        b"VTAH",
        PredicateWrite,
        "Three-input logic operation on predicates",
    ),
    op(
        "CSETP",
        b"FKM",
        PredicateWrite,
        "Test the condition code, set predicates",
    ),
    op(
        "VSETP",
        b"M",
        PredicateWrite,
        "Video (SIMD byte/half) compare, set predicates",
    ),
    op(
        "FCHK",
        b"KMVTAH",
        PredicateWrite,
        "Check whether an FP32 division needs the slow path, set a predicate",
    ),
    op(
        "R2P",
        b"FKMVTAH",
        PredicateWrite,
        "Move register bits to predicate registers",
    ),
    op(
        "VOTE",
        b"FKMVTAH",
        PredicateWrite,
        "Warp vote (all, any, equal) into a predicate or a ballot register",
    ),
    op(
        "VOTEU",
        b"TAH",
        PredicateWrite,
        "Warp vote into a uniform register or predicate",
    ),
    op(
        "UISETP",
        b"TAH",
        PredicateWrite,
        "Uniform integer compare, set uniform predicates",
    ),
    op(
        "UPSETP",
        b"TAH",
        PredicateWrite,
        "Combine uniform predicates, set uniform predicates",
    ),
    op(
        "UPLOP3",
        b"TAH",
        PredicateWrite,
        "Three-input logic operation on uniform predicates",
    ),
    op(
        "UR2UP",
        b"TAH",
        PredicateWrite,
        "Move uniform register bits to uniform predicates",
    ),
    op(
        "ELECT",
        b"H",
        PredicateWrite,
        "Elect one leader thread of the warp, set a predicate",
    ),
];
