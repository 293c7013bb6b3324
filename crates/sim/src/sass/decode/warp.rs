//! Decoding of the warp-wide opcodes (`VOTE`, `VOTEU`, `SHFL`, `MATCH`, `REDUX`).

use super::*;

/// The sm_70+ forms of this family (`None`: not one of them).
pub(super) fn volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    let n = ins.operands.len();
    Ok(Some(match name {
        "VOTE" | "VOTEU" => {
            let all = if m.take("ALL") {
                true
            } else if m.take("ANY") {
                false
            } else {
                return Err(cannot(ins, "only .ANY and .ALL are modelled"));
            };
            let (d, k) = match n {
                3 => (c.dest(o(0))?, 1),
                2 => (RZ_DEST, 0),
                _ => return Err(cannot(ins, "expected `VOTE d, p, q` or `VOTE p, q`")),
            };
            Op::Vote {
                d,
                p: c.pred_dest(o(k))?,
                src: c.pred_src(o(k + 1))?,
                all,
                uniform: name == "VOTEU",
            }
        }
        "SHFL" => {
            operand_count(ins, 5)?;
            let mode = m
                .take_any(|t| {
                    Some(match t {
                        "IDX" => ShflMode::Idx,
                        "UP" => ShflMode::Up,
                        "DOWN" => ShflMode::Down,
                        "BFLY" => ShflMode::Bfly,
                        _ => return None,
                    })
                })
                .ok_or_else(|| cannot(ins, "missing mode"))?;
            Op::Shfl {
                p: c.pred_dest(o(0))?,
                d: c.dest(o(1))?,
                a: c.src(o(2))?,
                b: c.src(o(3))?,
                c: c.src(o(4))?,
                mode,
            }
        }
        "REDUX" => {
            operand_count(ins, 2)?;
            let signed = m.take("S32");
            m.take("U32");
            // A bare `REDUX` is `.AND`: the one PTX `redux.sync` operation the corpus's
            // `simpleAtomicIntrinsics` (which uses all six) never names (*uncertain*).
            let op = m
                .take_any(|t| {
                    Some(match t {
                        "SUM" => ReduxOp::Sum,
                        "MIN" => ReduxOp::Min { signed },
                        "MAX" => ReduxOp::Max { signed },
                        "AND" => ReduxOp::And,
                        "OR" => ReduxOp::Or,
                        "XOR" => ReduxOp::Xor,
                        _ => return None,
                    })
                })
                .unwrap_or(ReduxOp::And);
            Op::Redux {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
                op,
            }
        }
        "MATCH" => {
            operand_count(ins, 2)?;
            if !m.take("ANY") {
                return Err(cannot(ins, "only MATCH.ANY is modelled"));
            }
            Op::MatchAny {
                d: c.dest(o(0))?,
                a: c.src(o(1))?,
            }
        }
        _ => return Ok(None),
    }))
}
