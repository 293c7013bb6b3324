//! What each GCN3 mnemonic does, as far as control flow, the execute mask, the executing
//! unit and register data flow are concerned. Unknown mnemonics get the generic rule of the
//! architecture notes: first operand written, the rest read.

use super::program::{
    ExecCondition, ExecEffect, GcnControl, GcnModifier, GcnOperand, GcnReg, GcnUnit,
    ScalarCondition,
};

/// Control classification of `opcode`; `target` is the label operand of branches.
pub(crate) fn control(opcode: &str, target: Option<&str>) -> GcnControl {
    let t = || target.unwrap_or_default().to_string();
    match opcode {
        "s_endpgm" | "s_endpgm_saved" | "s_endpgm_ordered_ps_done" => GcnControl::EndProgram,
        "s_branch" => GcnControl::Jump {
            target: t(),
            target_index: None,
        },
        "s_cbranch_execz" => GcnControl::ExecBranch {
            condition: ExecCondition::Execz,
            target: t(),
            target_index: None,
        },
        "s_cbranch_execnz" => GcnControl::ExecBranch {
            condition: ExecCondition::Execnz,
            target: t(),
            target_index: None,
        },
        "split" => GcnControl::Split,
        "merge" => GcnControl::Merge,
        // Calls, tail calls and returns among these are typed later (module `calls`).
        "s_setpc_b64" | "s_swappc_b64" | "s_call_b64" | "s_trap" | "s_rfe_b64"
        | "s_rfe_restore_b64" | "s_cbranch_g_fork" | "s_cbranch_i_fork" | "s_cbranch_join" => {
            GcnControl::Indirect
        }
        _ => {
            if let Some(cond) = opcode.strip_prefix("s_cbranch_") {
                let condition = match cond {
                    "scc0" => ScalarCondition::Scc0,
                    "scc1" => ScalarCondition::Scc1,
                    "vccz" => ScalarCondition::Vccz,
                    "vccnz" => ScalarCondition::Vccnz,
                    _ => ScalarCondition::Other,
                };
                GcnControl::ScalarBranch {
                    condition,
                    target: t(),
                    target_index: None,
                }
            } else {
                GcnControl::Fallthrough
            }
        }
    }
}

/// True for mnemonics whose (single) operand is a code label.
pub(crate) fn takes_label(opcode: &str) -> bool {
    opcode == "s_branch"
        || opcode.starts_with("s_cbranch_")
            && !matches!(
                opcode,
                "s_cbranch_join" | "s_cbranch_g_fork" | "s_cbranch_i_fork"
            )
}

/// The unit that executes `opcode`: the [`isa_table`](super::isa_table) entry's, else by
/// prefix.
pub fn unit(opcode: &str) -> GcnUnit {
    if let Some(l) = super::isa_table::lookup(opcode) {
        return l.entry.unit;
    }
    if opcode == "s_waitcnt" {
        GcnUnit::Waitcnt
    } else if opcode == "s_barrier" {
        GcnUnit::Barrier
    } else if opcode == "s_branch"
        || opcode.starts_with("s_cbranch")
        || opcode.starts_with("s_endpgm")
        || opcode == "s_setpc_b64"
        || opcode == "s_swappc_b64"
    {
        GcnUnit::Branch
    } else if opcode.starts_with("s_load_")
        || opcode.starts_with("s_buffer_load_")
        || opcode.starts_with("s_store_")
        || opcode.starts_with("s_buffer_store_")
        || opcode.starts_with("s_dcache_")
        || opcode.starts_with("s_memtime")
        || opcode.starts_with("s_memrealtime")
    {
        GcnUnit::ScalarMemory
    } else if opcode == "s_nop" || opcode == "split" || opcode == "merge" {
        GcnUnit::Other
    } else if opcode.starts_with("s_") {
        GcnUnit::Salu
    } else if opcode.starts_with("ds_") {
        GcnUnit::Lds
    } else if [
        "flat_", "global_", "buffer_", "tbuffer_", "image_", "scratch_",
    ]
    .iter()
    .any(|p| opcode.starts_with(p))
        || opcode.starts_with("exp")
    {
        GcnUnit::VectorMemory
    } else if opcode.starts_with("v_") {
        if ["_f64", "_u64", "_i64", "_b64"]
            .iter()
            .any(|p| opcode.contains(p))
        {
            GcnUnit::ValuF64
        } else {
            GcnUnit::Valu
        }
    } else {
        GcnUnit::Other
    }
}

/// How `opcode` with these operands changes `exec`.
pub(crate) fn exec_effect(opcode: &str, ops: &[GcnOperand]) -> ExecEffect {
    let dst_exec = ops.first().is_some_and(GcnOperand::is_exec);
    if opcode.starts_with("s_and_saveexec") || opcode.starts_with("s_andn2_saveexec") {
        return ExecEffect::Narrow;
    }
    if opcode.starts_with("s_or_saveexec") {
        return ExecEffect::Flip;
    }
    if opcode.starts_with("v_cmpx") {
        return ExecEffect::Narrow;
    }
    if opcode.contains("_saveexec") {
        return ExecEffect::Set;
    }
    if !dst_exec {
        return ExecEffect::None;
    }
    if opcode.starts_with("s_and_b") || opcode.starts_with("s_andn2_b") {
        ExecEffect::Narrow
    } else if opcode.starts_with("s_xor_b") {
        ExecEffect::Flip
    } else if opcode.starts_with("s_or_b") {
        ExecEffect::Restore
    } else {
        ExecEffect::Set
    }
}

/// Registers read and written, explicit and implicit, sorted and deduplicated.
pub(crate) fn data_flow(
    opcode: &str,
    ops: &[GcnOperand],
    control: &GcnControl,
) -> (Vec<GcnReg>, Vec<GcnReg>) {
    let mut reads: Vec<GcnReg> = Vec::new();
    let mut writes: Vec<GcnReg> = Vec::new();
    let is_store = opcode.contains("_store")
        || opcode.starts_with("ds_write")
        || opcode.starts_with("ds_add")
        || opcode.starts_with("exp");
    let all_read = is_store
        || opcode.starts_with("s_cmp")
        || opcode.starts_with("s_bitcmp")
        || opcode.starts_with("s_cbranch")
        || opcode == "s_branch"
        || opcode == "s_waitcnt"
        || opcode == "split"
        || opcode == "s_setpc_b64";
    for (i, op) in ops.iter().enumerate() {
        let regs = op.registers();
        if (i == 0 && !all_read) || (i == 1 && writes_carry(opcode, ops.len())) {
            writes.extend(regs);
        } else {
            reads.extend(regs);
        }
    }
    // Implicit operands.
    if opcode.starts_with("v_")
        || opcode.starts_with("flat_")
        || opcode.starts_with("global_")
        || opcode.starts_with("buffer_")
        || opcode.starts_with("ds_")
    {
        reads.push(GcnReg::Exec);
    }
    if opcode.starts_with("s_cmp") || opcode.starts_with("s_bitcmp") {
        writes.push(GcnReg::Scc);
    }
    if writes_scc(opcode) {
        writes.push(GcnReg::Scc);
    }
    if opcode.starts_with("s_cselect")
        || opcode.starts_with("s_cmov")
        || opcode.starts_with("s_addc")
        || opcode.starts_with("s_subb")
    {
        reads.push(GcnReg::Scc);
    }
    if opcode.contains("_saveexec") {
        reads.push(GcnReg::Exec);
        writes.push(GcnReg::Exec);
    }
    if opcode.starts_with("v_cmpx") {
        writes.push(GcnReg::Exec);
    }
    match control {
        GcnControl::ScalarBranch { condition, .. } => match condition {
            ScalarCondition::Scc0 | ScalarCondition::Scc1 => reads.push(GcnReg::Scc),
            ScalarCondition::Vccz | ScalarCondition::Vccnz => reads.push(GcnReg::Vcc),
            ScalarCondition::Other => {}
        },
        GcnControl::ExecBranch { .. } => reads.push(GcnReg::Exec),
        _ => {}
    }
    // Memory operands that are plain labels or expressions carry no registers.
    reads.retain(|r| !matches!(r, GcnReg::Other(n) if n.is_empty()));
    reads.sort();
    reads.dedup();
    writes.sort();
    writes.dedup();
    (reads, writes)
}

/// GFX8 VOP2/VOP3b carry forms write a carry-out as their second operand
/// (`v_add_u32_e32 v0, vcc, s0, v3`, `v_mad_u64_u32 v[3:4], s[2:3], ...`).
fn writes_carry(opcode: &str, n_ops: usize) -> bool {
    n_ops >= 4
        && [
            "v_add_u32",
            "v_sub_u32",
            "v_subrev_u32",
            "v_addc_u32",
            "v_subb_u32",
            "v_subbrev_u32",
            "v_add_co_u32",
            "v_sub_co_u32",
            "v_subrev_co_u32",
            "v_addc_co_u32",
            "v_subb_co_u32",
            "v_mad_u64_u32",
            "v_mad_i64_i32",
            "v_div_scale_f32",
            "v_div_scale_f64",
        ]
        .iter()
        .any(|p| opcode.starts_with(p))
}

/// Scalar ALU operations that set SCC as a side effect.
fn writes_scc(opcode: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "s_and_", "s_or_", "s_xor_", "s_andn2_", "s_orn2_", "s_nand_", "s_nor_", "s_xnor_",
        "s_not_", "s_add_", "s_sub_", "s_addc_", "s_subb_", "s_lshl_", "s_lshr_", "s_ashr_",
        "s_bfe_", "s_min_", "s_max_", "s_abs_", "s_addk_", "s_wqm_", "s_bcnt",
    ];
    PREFIXES.iter().any(|p| opcode.starts_with(p))
}

/// An SDWA instruction (`*_sdwa`) that keeps the unselected bits of its destination
/// (`dst_unused:UNUSED_PRESERVE`, the default, with a `dst_sel` narrower than `DWORD`), so
/// that it reads the destination too. Defaults: LLVM *Syntax of AMDGPU Instruction
/// Modifiers*, "SDWA Modifiers" (`dst_sel` DWORD; unused bits preserved).
pub(crate) fn sdwa_preserves(opcode: &str, modifiers: &[GcnModifier]) -> bool {
    let value = |n: &str| {
        modifiers
            .iter()
            .find(|m| m.name == n)
            .and_then(|m| m.value.as_deref())
            .map(str::to_ascii_uppercase)
    };
    opcode.ends_with("_sdwa")
        && value("dst_sel").is_some_and(|s| s != "DWORD")
        && value("dst_unused").is_none_or(|u| u == "UNUSED_PRESERVE")
}
