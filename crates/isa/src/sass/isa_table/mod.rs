//! The SASS opcodes of Fermi to Hopper: what each is called, on which GPU generations it
//! exists, what it is for in one line, and the role that decides how strictly the parser
//! treats it.
//!
//! Source: NVIDIA, *CUDA Binary Utilities* (DA-06762-001), chapter "Instruction Set
//! Reference": the Fermi and Kepler tables (v5.5–v10 of the document), "Maxwell and Pascal
//! Instruction Set", "Volta Instruction Set", "Turing Instruction Set", "NVIDIA Ampere GPU and
//! Ada Instruction Set" and "Hopper Instruction Set" (v11–v13). The descriptions are written
//! here, shortened for a tooltip; the opcode names and their meaning are NVIDIA's. Three
//! opcodes that `cuobjdump` prints but the tables leave out say so in their description
//! (`F2FP`, `ISUB`, `KIL`); every opcode of the shared corpus listings is here (a test checks
//! it).
//!
//! What this is not: an encoding table or a modifier grammar. The table is keyed on the base
//! mnemonic (`ISETP` for `ISETP.GE.U32.AND`); modifiers are checked only where they change
//! control flow (see [`control_modifiers`]).
//!
//! Why it exists: an opcode the parser does not know is read generically (first operand
//! written, the rest read), which is harmless for arithmetic but can silently remove a branch,
//! a reconvergence point or a barrier — and so lower a WCET bound. Knowing every real opcode
//! and its role lets the parser warn about unknown arithmetic and refuse anything that might be
//! control.
//!
//! The opcodes are listed in one submodule per group of NVIDIA's reference (`control`,
//! `predicates`, `float`, `integer`, `memory`, …) and concatenated, in table order, into
//! [`OPCODES`] at compile time.

mod control;
mod conversion;
mod float;
mod integer;
mod memory;
mod movement;
mod predicates;
mod special_register_reads;
mod tensor_memory;
mod texture;
mod uniform;

/// A GPU generation as NVIDIA's reference groups them (one table per entry; Maxwell and Pascal
/// share one, as do Ampere and Ada).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Compute capability 2.x.
    Fermi,
    /// Compute capability 3.x.
    Kepler,
    /// Compute capability 5.x and 6.x.
    MaxwellPascal,
    /// Compute capability 7.0 and 7.2.
    Volta,
    /// Compute capability 7.5.
    Turing,
    /// Compute capability 8.x.
    AmpereAda,
    /// Compute capability 9.0.
    Hopper,
}

impl Family {
    pub const ALL: [Family; 7] = [
        Family::Fermi,
        Family::Kepler,
        Family::MaxwellPascal,
        Family::Volta,
        Family::Turing,
        Family::AmpereAda,
        Family::Hopper,
    ];

    /// The family of an architecture name such as `sm_61` or `sm_90a`; `None` for
    /// generations outside the table (Tesla, Blackwell and later) or names it cannot read.
    pub fn of_arch(arch: &str) -> Option<Family> {
        let digits: String = arch
            .trim()
            .strip_prefix("sm_")?
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        match digits.parse::<u32>().ok()? {
            20..=29 => Some(Family::Fermi),
            30..=39 => Some(Family::Kepler),
            50..=69 => Some(Family::MaxwellPascal),
            70..=72 => Some(Family::Volta),
            73..=79 => Some(Family::Turing),
            80..=89 => Some(Family::AmpereAda),
            90..=99 => Some(Family::Hopper),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Fermi => "Fermi",
            Family::Kepler => "Kepler",
            Family::MaxwellPascal => "Maxwell/Pascal",
            Family::Volta => "Volta",
            Family::Turing => "Turing",
            Family::AmpereAda => "Ampere/Ada",
            Family::Hopper => "Hopper",
        }
    }

    /// Bytes from one instruction to the next: 128-bit instructions from Volta on, 64-bit
    /// before (Kepler to Pascal also interleave 64-bit scheduling control words).
    pub fn instruction_bytes(self) -> u64 {
        match self {
            Family::Fermi | Family::Kepler | Family::MaxwellPascal => 8,
            _ => 16,
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Families(u8);

impl Families {
    /// Builds a set from the initials F, K, M, V, T, A, H (Fermi, Kepler, Maxwell/Pascal,
    /// Volta, Turing, Ampere/Ada, Hopper), the legend of the table below.
    pub const fn from_initials(initials: &[u8]) -> Families {
        let mut bits = 0u8;
        let mut i = 0;
        while i < initials.len() {
            bits |= match initials[i] {
                b'F' => 1,
                b'K' => 1 << 1,
                b'M' => 1 << 2,
                b'V' => 1 << 3,
                b'T' => 1 << 4,
                b'A' => 1 << 5,
                b'H' => 1 << 6,
                _ => 0,
            };
            i += 1;
        }
        Families(bits)
    }

    pub fn contains(self, f: Family) -> bool {
        self.0 & f.bit() != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Family> {
        Family::ALL.into_iter().filter(move |f| self.contains(*f))
    }

    /// "Volta to Hopper", "Fermi to Maxwell/Pascal", "Hopper", "Fermi, Volta".
    pub fn describe(self) -> String {
        let members: Vec<Family> = self.iter().collect();
        let (Some(first), Some(last)) = (members.first(), members.last()) else {
            return "no generation".to_string();
        };
        let contiguous = members.len() > 1
            && Family::ALL
                .iter()
                .skip_while(|f| *f != first)
                .take(members.len())
                .eq(members.iter());
        if members.len() == 1 {
            first.name().to_string()
        } else if contiguous {
            format!("{} to {}", first.name(), last.name())
        } else {
            members
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

/// What an opcode can do to control flow, divergence or agreement — what decides how strictly
/// an unknown look-alike is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Computes values; control continues at the next instruction.
    Ordinary,
    /// Branches, jumps, calls, returns, exits, traps and scheduling hints (NVIDIA's "Control
    /// Instructions").
    ControlFlow,
    /// Fermi–Pascal SIMT reconvergence stack: `SSY`/`SYNC`, `PBK`/`BRK`, `PCNT`/`CONT`,
    /// `PRET`, `PLONGJMP`, `PEXIT`.
    Stack,
    /// Volta-and-later convergence barriers and warp synchronisation: `BSSY`, `BSYNC`,
    /// `BREAK`, `BMOV`, `WARPSYNC`, `ENDCOLLECTIVE`.
    Convergence,
    /// Thread-block, memory, dependency and cluster barriers.
    Barrier,
    /// Writes predicate registers (comparisons, predicate logic, votes): the source of
    /// divergent branches.
    PredicateWrite,
    /// Reads a special register (`S2R`, `CS2R`, `S2UR`): thread and block indices, clocks.
    SpecialRegister,
}

impl Role {
    /// True for the roles a misread instruction could hide a branch, a reconvergence point
    /// or a barrier behind.
    pub fn is_control_like(self) -> bool {
        matches!(
            self,
            Role::ControlFlow | Role::Stack | Role::Convergence | Role::Barrier
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Ordinary => "ordinary",
            Role::ControlFlow => "control flow",
            Role::Stack => "SIMT stack",
            Role::Convergence => "convergence barrier",
            Role::Barrier => "barrier",
            Role::PredicateWrite => "predicate-writing",
            Role::SpecialRegister => "special-register read",
        }
    }
}

/// One opcode of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpcodeInfo {
    /// The base mnemonic, as `cuobjdump` prints it.
    pub name: &'static str,
    /// The generations whose table lists it.
    pub families: Families,
    pub role: Role,
    /// One line for a tooltip.
    pub description: &'static str,
}

const fn op(
    name: &'static str,
    initials: &'static [u8],
    role: Role,
    description: &'static str,
) -> OpcodeInfo {
    OpcodeInfo {
        name,
        families: Families::from_initials(initials),
        role,
        description,
    }
}

use Role::Ordinary;

/// Every opcode, control-like ones first: nearest-name hints break ties by this order, so a
/// typo equally close to a branch and to an arithmetic opcode is treated as the branch.
/// Families use the initials F K M V T A H (see [`Families::from_initials`]).
pub static OPCODES: &[OpcodeInfo] = &concatenate::<{ total_len(GROUPS) }>(GROUPS);

/// The groups of [`OPCODES`], in table order: one submodule per group of NVIDIA's reference.
const GROUPS: &[&[OpcodeInfo]] = &[
    control::CONTROL_FLOW,
    control::SIMT_STACK,
    control::CONVERGENCE,
    control::BARRIERS,
    predicates::PREDICATE_WRITES,
    special_register_reads::SPECIAL_REGISTER_READS,
    float::FP32,
    float::FP16,
    float::FP64,
    integer::INTEGER,
    conversion::CONVERSION,
    movement::MOVEMENT,
    memory::LOAD_STORE,
    uniform::UNIFORM_DATAPATH,
    tensor_memory::WARPGROUP_AND_TENSOR_MEMORY,
    texture::TEXTURE_AND_SURFACE,
    MISCELLANEOUS,
];

const fn total_len(groups: &[&[OpcodeInfo]]) -> usize {
    let mut n = 0;
    let mut g = 0;
    while g < groups.len() {
        n += groups[g].len();
        g += 1;
    }
    n
}

/// The groups one after the other; `N` is their total length.
const fn concatenate<const N: usize>(groups: &[&[OpcodeInfo]]) -> [OpcodeInfo; N] {
    let mut out = [groups[0][0]; N];
    let mut i = 0;
    let mut g = 0;
    while g < groups.len() {
        let mut k = 0;
        while k < groups[g].len() {
            out[i] = groups[g][k];
            i += 1;
            k += 1;
        }
        g += 1;
    }
    out
}

/// No-ops and state moves that belong to no other group.
const MISCELLANEOUS: &[OpcodeInfo] = &[
    op("NOP", b"FKMVTAH", Ordinary, "No operation"),
    op(
        "B2R",
        b"FKMVTAH",
        Ordinary,
        "Move barrier state to a register",
    ),
    op("LEPC", b"MVTAH", Ordinary, "Load the program counter"),
    op(
        "GETLMEMBASE",
        b"VTAH",
        Ordinary,
        "Get the local-memory base address",
    ),
    op(
        "SETLMEMBASE",
        b"VTAH",
        Ordinary,
        "Set the local-memory base address",
    ),
    op(
        "PMTRIG",
        b"VTAH",
        Ordinary,
        "Trigger a performance-monitor event",
    ),
    op("SETCTAID", b"VTAH", Ordinary, "Set the thread-block index"),
];

/// The table entry of a base mnemonic (`ISETP`, not `ISETP.GE.AND`).
pub fn lookup(name: &str) -> Option<&'static OpcodeInfo> {
    OPCODES.iter().find(|o| o.name == name)
}

/// The modifiers a control opcode may carry, for the opcodes whose modifiers change control
/// flow (`BRA.U` is taken only when all active threads agree, `BRA.DIV` only when the warp has
/// diverged, `CALL.ABS` names an absolute address, `VOTE.ALL` and `VOTE.ANY` compute different
/// predicates). `None`: modifiers are not checked. The Fermi/Kepler sync flag `.S` is allowed
/// everywhere on those generations and is not listed.
pub fn control_modifiers(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "BRA" => &["U", "ANY", "DIV", "CONV", "INC", "DEC", "LMT"],
        "BRX" | "JMX" | "BRXU" | "JMXU" => &["U", "ANY", "INC", "DEC", "LMT"],
        "JMP" => &["U", "ANY", "INC", "DEC", "LMT"],
        "CAL" | "JCAL" => &["NOINC", "INC"],
        "CALL" => &["REL", "ABS", "NOINC"],
        "RET" => &["REL", "ABS", "NODEC"],
        "SSY" | "PBK" | "PCNT" | "PRET" | "PLONGJMP" | "PEXIT" | "SYNC" | "BRK" | "CONT"
        | "LONGJMP" => &[],
        "EXIT" => &["KEEPREFCOUNT", "NO_ATEXIT", "PREEMPTED"],
        "KIL" | "KILL" => &[],
        "BSSY" | "BSYNC" => &["RECONVERGENT", "RELIABLE"],
        "BREAK" => &[],
        "WARPSYNC" => &["ALL", "EXCLUSIVE", "COLLECTIVE"],
        "VOTE" | "VOTEU" => &["ALL", "ANY", "EQ", "UNI"],
        _ => return None,
    })
}

/// Integer compares: the comparison (`T`/`F` always true/false), the operand type `.U32`/`.S32`,
/// `.X` (Kepler–Pascal) or `.EX` (Volta on) for the high words of a 64-bit compare, and how
/// the result is combined with the predicate source (`.AND`, `.OR`, `.XOR`).
const INTEGER_COMPARE: &[&str] = &[
    "F", "LT", "EQ", "LE", "GT", "NE", "GE", "T", "U32", "S32", "X", "EX", "AND", "OR", "XOR",
];
/// Floating-point compares: the ordered comparisons, `.NUM`/`.NAN`, the unordered `…U` ones,
/// `.FTZ` (denormals as zero), `.MIN`/`.MAX` (the compare nvcc emits for a min or max), and
/// the combination with the predicate source.
const FLOAT_COMPARE: &[&str] = &[
    "F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU",
    "GEU", "T", "FTZ", "MIN", "MAX", "AND", "OR", "XOR",
];
/// Paired FP16 compares: as [`FLOAT_COMPARE`], and `.H_AND` (both halves must hold),
/// `.BF16_V2` (bfloat16 pairs).
const HALF_COMPARE: &[&str] = &[
    "F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU",
    "GEU", "T", "FTZ", "H_AND", "BF16_V2", "AND", "OR", "XOR",
];

/// The modifiers of the predicate-writing opcodes whose result decides branches — compares
/// and predicate logic (`ISETP.GE.U32.AND`, `FSETP.GTU.FTZ.AND`, `PSETP.AND.OR`, `PLOP3.LUT`,
/// `FCHK.DIVIDE`), after NVIDIA's instruction set reference and the listings nvcc writes: a
/// misspelt one (`ISETP.GE.ADN`) is an error, since reading it as some other compare would
/// decide branches wrongly. `None`: modifiers are not checked (`CSETP`'s condition codes,
/// `R2P`, the video compares; the votes are in [`control_modifiers`]). The Fermi/Kepler sync
/// flag `.S` is allowed on those architectures by the caller.
pub fn predicate_modifiers(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "ISETP" | "UISETP" => INTEGER_COMPARE,
        "FSETP" | "DSETP" => FLOAT_COMPARE,
        "HSETP2" => HALF_COMPARE,
        "PSETP" | "UPSETP" => &["AND", "OR", "XOR"],
        "PLOP3" | "UPLOP3" => &["LUT"],
        "FCHK" => &["DIVIDE"],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_control_comes_first() {
        let mut seen = std::collections::BTreeSet::new();
        for o in OPCODES {
            assert!(seen.insert(o.name), "{} twice", o.name);
            assert!(
                !o.description.is_empty() && o.description.len() <= 100,
                "{}",
                o.name
            );
            assert!(o.families.iter().next().is_some(), "{}", o.name);
        }
        let first_ordinary = OPCODES
            .iter()
            .position(|o| !o.role.is_control_like())
            .unwrap_or(0);
        assert!(OPCODES[first_ordinary..]
            .iter()
            .all(|o| !o.role.is_control_like()));
    }

    #[test]
    fn families_of_architectures() {
        assert_eq!(Family::of_arch("sm_20"), Some(Family::Fermi));
        assert_eq!(Family::of_arch("sm_35"), Some(Family::Kepler));
        assert_eq!(Family::of_arch("sm_61"), Some(Family::MaxwellPascal));
        assert_eq!(Family::of_arch("sm_70"), Some(Family::Volta));
        assert_eq!(Family::of_arch("sm_75"), Some(Family::Turing));
        assert_eq!(Family::of_arch("sm_86"), Some(Family::AmpereAda));
        assert_eq!(Family::of_arch("sm_90a"), Some(Family::Hopper));
        assert_eq!(Family::of_arch("sm_100"), None);
        assert_eq!(Family::of_arch("compute_61"), None);
    }

    #[test]
    fn roles_and_generations_of_some_opcodes() {
        let bssy = lookup("BSSY").map(|o| (o.role, o.families.describe()));
        assert_eq!(
            bssy,
            Some((Role::Convergence, "Volta to Hopper".to_string()))
        );
        let ssy = lookup("SSY").map(|o| (o.role, o.families.describe()));
        assert_eq!(
            ssy,
            Some((Role::Stack, "Fermi to Maxwell/Pascal".to_string()))
        );
        assert_eq!(lookup("ISETP").map(|o| o.role), Some(Role::PredicateWrite));
        assert_eq!(lookup("S2UR").map(|o| o.role), Some(Role::SpecialRegister));
        assert_eq!(lookup("BAR").map(|o| o.role), Some(Role::Barrier));
        assert_eq!(lookup("IADD3").map(|o| o.role), Some(Role::Ordinary));
        assert_eq!(lookup("ISETP.GE"), None);
        assert_eq!(
            lookup("RED").map(|o| o.families.describe()),
            Some("Fermi to Ampere/Ada".to_string())
        );
        assert_eq!(
            Families::from_initials(b"FV").describe(),
            "Fermi, Volta".to_string()
        );
    }
}
