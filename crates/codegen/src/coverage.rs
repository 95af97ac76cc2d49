//! Which PTX instructions have a selection rule, and why the others do not (yet).
//!
//! [`status`] is an exhaustive `match` over every opcode of the `isa` table, so a new opcode
//! cannot be added without deciding here; the coverage test walks every table row with it.
//! A rule covers the forms `select.rs` documents; other types or modifiers of a covered opcode
//! are reported as errors naming the form at translation time, never mistranslated.

use ir::Opcode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Selected; the text says which forms.
    Rule(&'static str),
    /// Not selected, with the reason.
    NotSupported(&'static str),
}

const NO_INSTRUCTION: &str = "sm_20 has no instruction for it";

pub fn status(op: Opcode) -> Status {
    use Opcode::*;
    use Status::*;
    match op {
        Add => Rule(".s32/.u32 (IADD), .sat.s32 (IADD.SAT), .s64/.u64 (IADD.CC + IADD.X), .cc chains, .f32 (FADD, .sat as FADD.SAT), .f64 (DADD)"),
        Sub => Rule(".s32/.u32 (IADD with negated operand), .sat.s32 (IADD.SAT of a negated immediate other than MIN; else the wrapping difference, the overflow test (a^b)&(a^r) and ICMP picking the bound), .s64/.u64 (IADD.CC + IADD.X, negated), .cc chains, .f32 (FADD), .f64 (DADD)"),
        Mul => Rule(".lo/.hi/.wide on 32-bit integers (IMUL[.HI]; .lo by 2^k as SHL, read by an add as ISCADD), .lo and .hi on 64-bit (IMUL/IMAD on the halves; the 128-bit product's high half accumulated with IADD.CC/.X, signed by correction), 16-bit, .f32 (FMUL), .f64 (DMUL)"),
        Mad => Rule(".lo on 32-bit integers (IMAD; by 2^k as ISCADD); 16-bit .lo/.hi/.wide (extended operands); .hi, .wide, 64-bit .lo/.hi and .cc (product by IMUL, then IADD[.CC]); .hi.sat.s32 (IMUL.HI, IADD.SAT); .rn/.rz/.rm/.rp .f32/.f64 (FFMA/DFMA), PTX 1.x unfused .f32/.f64 without rounding (FMUL+FADD, DMUL+DADD)"),
        Fma => Rule(".f32 (FFMA, .sat as FFMA.SAT), .f64 (DFMA) with every rounding mode"),
        Min | Max => Rule(".s32/.u32 (IMNMX), .f32 (FMNMX; .NaN: FSETP.NAN and the canonical NaN; .xorsign.abs: FMNMX of the magnitudes, the XOR of the signs by LOP), .f64 (DMNMX), 16-bit, .s64/.u64 (the 64-bit comparison into P6, SEL per half); not .relu (sm_80) nor .f32x2"),
        Neg | Abs => Rule(".s32 (IADD RZ, -a; I2I.S32.S32 |a|), .s64 (IADD.CC/.X from RZ, under the sign for abs), .f32/.f64 sign-bit LOP32I (exact for -0 and NaN)"),
        Membar => Rule("membar.cta/.gl/.sys (MEMBAR); fence.sc/.acq_rel (MEMBAR at the scope's level)"),
        And | Or | Xor => Rule(".b32 (LOP), .b64 (two LOPs; LOP32I per half for an immediate)"),
        Not => Rule(".b32 (LOP.PASS_B with inverted source), .b64 (one per half)"),
        Shl | Shr => Rule(".b32/.u32/.s32 (SHL, SHR, SHR.U32); 64-bit by an immediate or a register (on the halves, with Fermi's clamping shifts)"),
        Setp => Rule("32-bit integer (ISETP), .f32 (FSETP) and .f64 (DSETP) comparisons with a boolean combiner (a literal 1/0 combining operand as PT/!PT); 64-bit integer (ISETPs on the halves; with a complement output or combining with its own destination, into P6 then PSETP); not .f16/.bf16 (sm_53 forms)"),
        Selp => Rule("32- and 64-bit (SEL)"),
        Mov => Rule("registers, immediates, %tid/%ctaid/%laneid/%lanemask_* (S2R), %clock/%clock64 (S2R SR_ClockLo/Hi), %warpid/%nwarpid (from tid and ntid), %gridid (S2R SR_GridParam, envydis' gridid), %ntid/%nctaid (c[0x0]), WARP_SZ, shared/local/const variable addresses; whole-vector mov.v2/.v4 of every element type, swizzles, spreads and brace lists as one parallel copy (MOV/MOV32I/PSETP, cycles through the scratch register); 16-bit parts packed into or unpacked from .b32/.b64 (LOP32I.AND, ISCADD, SHR.U32), immediates unpacked into parts (MOV32I each); mov.v4.pred over eight distinct predicates split per lane; a kernel parameter's address (its offset in the parameter buffer)"),
        Ld => Rule(".param (c[0x0][0x20+]; sub-word ones by LDC.U8/.S8/.U16/.S16; through a register in an entry LDC c[0x0][R+0x20]), .global/generic (LD, LD.E), .shared and .shared::cluster (LDS), .local (LDL), .const (LDC on c[0x2]); absolute global/generic/shared addresses ([RZ+a]); vectors as one access per element; .acquire (then MEMBAR), .relaxed/.acquire at .gpu scope LD.CG, at .sys or .volatile LD.CV"),
        St => Rule(".global/generic (ST, ST.E), .shared and .shared::cluster (STS), .local (STL); 64-bit immediates through a scratch or spare pair; absolute global/generic/shared addresses; a store to the kernel's read-only parameters (through a register) BPT.TRAP; vectors as one access per element; .release (MEMBAR first)"),
        Cvt => Rule("integer widening/narrowing (MOV, SHR for sign, I2I; 64-bit from/to 8/16-bit by I2I of a word), int->float (I2F), float->int (F2I, saturating with or without .sat), float->float (F2F) with PTX's rounding modes; .sat to a float (F2F.SAT; I2F then F2F.SAT); .sat between integers (I2I, IMNMX; 64-bit sides by SHR/LOP/ICMP on the halves); .f16 (F2F/I2F/F2I .F16, IEEE binary16; not in PTX 1.x modules, whose .f16 has no infinities or NaNs); not .bf16, nor cvt.pack (sm_72)"),
        Cvta => Rule(".global to and from generic (identity on sm_20's flat global window), .shared and .local (the window bases c[0x0][0x0] and c[0x0][0x4]); not .const/.param: sm_20's generic space has no constant or parameter window (docs/spec-notes.md); not .shared::cluster (the executor's results differ, spec-notes s25 formdiff)"),
        Bar | Barrier => Rule("bar.sync 0 (BAR.RED.POPC RZ, RZ, as NVIDIA emits __syncthreads); bar.sync/barrier.sync/bar.arrive with a barrier number and thread count, immediates or registers (BAR.SYNC/BAR.ARV); bar.red.popc/.and/.or with the same operands (BAR.RED); not bar.warp.sync (sm_30, no warp barrier)"),
        Bra => Rule("divergent branches with SSY/.S at the immediate post-dominator, PBK/BRK for loops with several exits; guarded bra.uni as BRA.U"),
        Ret | Exit => Rule("EXIT in an entry; the frame epilogue and RET in a .func (guarded: the other lanes branch past it)"),
        Div => Rule(".rn/.rz/.rm/.rp.f64 exact (MUFU.RCP seed, DFMA Newton, RZ quotient by residual signs, integer rounding incl. subnormal results); .s32/.u32 (NVIDIA's MUFU.RCP reciprocal sequence with integer Newton step and corrections); .f32 .rn/.rz/.rm/.rp/.full[.ftz] exact through f64 (.ftz: F2F.FTZ conversions, subnormals in the special class), .approx and .approx.ftz (MUFU.RCP, FMUL[.FTZ]); .u64/.s64 (a uniform 64-step restoring loop, signs fixed after dividing magnitudes); .u16/.s16 (operands extended, the 32-bit sequence); .f64 without rounding as .rn (PTX 1.x); PTX 1.x .wide (16-bit: the 32-bit sequence; 32-bit: the 64-bit loop on the extended divisor, unguarded); not .sat.s32 (the table gives it a 64-bit dividend: see the s25 report)"),
        Rem => Rule(".s32/.u32 (with div's sequence), .u64/.s64 (div's loop), .u16/.s16 and PTX 1.x .wide as div"),
        Mul24 | Mad24 => Rule(".lo .u32/.s32 (24-bit operands masked or sign-extended, IMUL/IMAD); .hi .u32/.s32 and mad24.hi.sat.s32 (IMUL/IMUL.HI of the narrowed operands joined by SHR.U32 + ISCADD, IADD[.SAT])"),
        Sad => Rule(".u32/.s32 (ISAD); .u16/.s16 (ISAD of the extended operands); .u64/.s64 (ISETPs on the halves, IADD.CC/IADD.X); PTX 1.x .f32/.f64 (FSETP/DSETP.LT, FADD/DADD each rounded)"),
        Set => Rule("32-bit integer comparisons to a .u32/.s32 mask (ISET); other sources (16/64-bit integer, .f32, .f64) and .f32 results as setp's comparison into P6, then SEL of all ones or 1.0"),
        Slct => Rule("with an .s32 selector (ICMP.GE); with an .f32 selector FSETP.GE[.FTZ] against +0 (NaN selects b), then SEL; 16-bit results as 32-bit, 64-bit results by ISETP/FSETP into P6 and a SEL per half"),
        Cnot => Rule("32-bit (ISET.EQ then negate)"),
        Clz => Rule(".b32 (31 - FLO.U32), .b64 (63 - the 64-bit FLO pick)"),
        Bfind => Rule(".u32/.s32 (FLO), .u64/.s64 (FLO.U32 of each half, ICMP.GE pick; .s64 complements a negative value first); .shiftamt as (FLO ^ msb) | (FLO >> 31), keeping 0xffffffff"),
        Bfe => Rule(".u32/.s32 (BFE with position and length packed); .u64/.s64 as shifts on the halves (select/wide_forms.rs, select/bitfield64.rs)"),
        Brev => Rule(".b32 (bit pairs, pairs and nibbles swapped by SHR/LOP32I/ISCADD, bytes by PRMT), .b64 (each half, swapped)"),
        Addc | Subc => Rule("32/64-bit chains (IADD.X), also across blocks when every path brings the same chain (Fermi's CC survives branches), additions and subtractions not mixed; with no producer on any path of a kernel, PTX's initial 0 (IADD RZ.CC first)"),
        Madc => Rule(".lo/.hi, 32/64-bit, in an addition chain (across blocks as addc): the product by IMUL (which keeps the carry), then IADD.X; a 64-bit high product saves and restores the flag"),
        Rcp => Rule(".rn/.rz/.rm/.rp[.ftz].f32 exact through f64 (MUFU.RCP seed, DFMA Newton, F2F rounding), .approx[.ftz].f32 (MUFU.RCP, FMUL.FTZ flushing), .rn/.rz/.rm/.rp.f64 (div.f64's sequence with a = 1), .approx.ftz.f64 (the manual's high-word definition: rcp.rn.f64 of the flushed high word, rounded at 20 fraction bits by IADD.CC/IADD.X, flushed)"),
        Sqrt => Rule(".rn/.rz/.rm/.rp[.ftz].f32 exact through f64 (MUFU.RSQ seed, DFMA Newton and correction, F2F rounding), .approx[.ftz].f32 with the .rn sequence (ptxvm defines it as the .rn result); .rn/.rz/.rm/.rp.f64 exact (MUFU.RSQ seed, Goldschmidt DFMA steps, RZ root by residual signs, rounding from the exact remainder)"),
        Rsqrt => Rule(".approx{.ftz}.f32 (MUFU.RSQ; FMUL.FTZ flushing); .approx.f64 and PTX 1.x .f64 (sqrt.rn.f64 then rcp.rn.f64: ops' two roundings), .approx.ftz.f64 (the same on the flushed high word, rounded at 20 fraction bits, flushed; an immediate's high word by MOV32I)"),
        Sin | Cos | Lg2 | Ex2 => Rule(".approx{.ftz}.f32 (RRO.SINCOS/RRO.EX2 then MUFU.SIN/COS/EX2; MUFU.LG2; FMUL.FTZ flushing); PTX has no .f64 form"),
        Testp | Copysign => Rule(".f32/.f64: integer tests (ISETP) and masks (LOP) on the bit patterns; an immediate's class (ops::float::testp) or masked words known at translation"),
        Prmt => Rule(".b32 with every mode (PRMT)"),
        Isspacep => Rule(".const/.param (false: sm_20 code forms no such generic address); .global/.shared/.shared::cluster/.local: the address (a 32-bit register zero-extended) against the shared and local windows (c[0x0][0x0]/[0x4], 16 MiB each) with ISETP, PSETP for global"),
        Ldu => Rule("as ld (LD): the same value"),
        Prefetch | Prefetchu => Rule("nothing: a prefetch changes no value"),
        Tex => Rule(".1d/.2d/.3d/.a1d/.a2d .s32 (TLD.LZ) and .f32 (TEX.LZ), .cube/.acube .f32 (TEX.LZ) on a .tex/.texref variable (unit = its texture_slot): coordinates and results through R4-R7, an array layer clamped into 16 bits, only channels with a destination enabled; not texture objects (handles in registers: bindless needs sm_30), separate samplers, multisample geometries"),
        Txq => Rule(".width/.height/.depth/.num_mipmap_levels of a .tex/.texref variable (one channel of TXQ TEX_HEADER_DIMENSION); .channel_data_type/.normalized_coords/.array_size/.num_samples (ops::tex answers them alike for every binding: TXQ for the unbound fault, then MOV32I); not .channel_order (no TXQ query known to return the format), not sampler queries, not texture objects"),
        Call => Rule("direct calls of .func with .param or .reg parameters (CAL/RET, arguments on the stack, callee-saved registers, recursion; guarded: SSY, the other lanes branch around the call, NOP.S); indirect through a register with a .callprototype: SSY, the pointer compared with each candidate's address (a .func whose address the module takes, of the prototype's sizes; addresses FUNC_ADDR_BASE + 16*id as the PTX executor's), @P BRA to its CAL then NOP.S, BPT.TRAP when none matches; a call no .func of its counts (or only declarations in its target list) can answer is BPT.TRAP; candidates with different argument blocks are refused)"),
        Brx => Rule("brx.idx (a guarded one: @!p BRA past the pad to the fall-through): bounds check (@P6 BPT.TRAP), BRX into a landing pad of one BRA per target, SSY/.S at the targets' immediate post-dominator"),
        Fence => Rule("fence{.sc,.acq_rel} at .cta/.gpu/.cluster/.sys (MEMBAR.CTA/GL/GL/SYS); not fence.proxy"),
        Atom | Red => Rule("global/generic addresses (ATOM/RED: add/min/max/inc/dec .u32/.s32, logic/exch/cas .b32, add/exch/cas 64-bit, add.f32; atom min/max .s64/.u64, and/or/xor .b64, add.f64 (atom and red) as an ATOM.CAS.U64 loop); 64-bit immediates in the scratch or spare pairs; .shared::cluster as shared; shared memory with NVIDIA's LDSLK/STSUL loop (32-bit add/min/max/inc/dec/logic/exch/cas, add.f32; 64-bit add/min/max/logic/exch/cas, add.f64 with LDSLK.64/STSUL.64); .add.noftz .f16/.bf16/.f16x2/.bf16x2 and cas.b16 as a 32-bit ATOM.CAS or LDSLK/STSUL loop on the containing word (f32 sum rounded once more: exact); .relaxed/.acquire/.release/.acq_rel with .cta/.gpu/.sys as MEMBAR.CTA/GL/SYS around the access"),
        Vote => Rule("vote.all/.any/.uni .pred and vote.ballot.b32 without .sync (VOTE.ALL/ANY/EQ)"),
        Bfi => Rule(".b32 (BFI with position and length packed, as NVIDIA does); .b64 as a BFI per word (select/bitfield64.rs)"),
        Popc => Rule(".b32 (POPC d, a, a), .b64 (two POPCs and IADD)"),
        Trap => Rule("BPT.TRAP (a guarded trap branches around it)"),
        Brkpt => Rule("BPT.INT 0x0 (a debugger interrupt: with none attached, both executors go on)"),
        Pmevent => Rule("PMEVENT with the event's bit or the .mask (envydis' gf100 entry: NOP with bit 50; no monitor attached, both executors go on)"),
        Vadd | Vsub | Vmin | Vmax | Vshl | Vshr => Rule("scalar video onto VADD (a negated source for vsub), VMNMX (.MX for vmax), VSHL/VSHR (.W for .wrap): byte/half selectors as source types, .sat (vadd/vsub; vmin/vmax/vshr: operands or the shift clamped by VMNMX.MX.MIN first, no Fermi saturation bit; vshl: the operand clamped to [ceil(lo/2^b), hi>>b], then SHL or the bound), .add/.min/.max, the merges .h0/.h1/.b0/.b2"),
        Vabsdiff | Vset => Rule("scalar video onto VABSDIFF (.sat, .add/.min/.max, merges) and VSET.cmp (the result unsigned), with byte/half selectors as source types"),
        Vmad => Rule("BFE of the selected parts; without .sat and .shr7/.shr15 the low word (IMAD, or IMUL + IADD for a negated product, a negated c or .po); with them the 96-bit sum (IMUL/IMUL.HI with the parts' signs, IADD.CC/IADD.X adding or subtracting c), shifted by SHR.U32/ISCADD and clamped by ISETP/SEL (no VMAD row)"),
        Fns | Szext | Bmsk | Dp4a | Dp2a | Tanh | Lop3 | Shf | Shfl | Activemask | Redux | Match
        | Nanosleep => NotSupported(NO_INSTRUCTION),
        Cp | Ldmatrix | Stmatrix | Movmatrix | Mma | Elect | Mbarrier | Wmma => {
            NotSupported(NO_INSTRUCTION)
        }
        Wgmma | Tcgen05 => NotSupported(NO_INSTRUCTION),
        Vadd2 | Vsub2 | Vavrg2 | Vabsdiff2 | Vmin2 | Vmax2 | Vset2 | Vadd4 | Vsub4 | Vavrg4
        | Vabsdiff4 | Vmin4 | Vmax4 | Vset4 => {
            NotSupported("SIMD video: sm_20 has no instruction for it")
        }
    }
}

/// Why `op` cannot be translated at all, if it cannot: the lowest target of its forms in the
/// PTX table (the table's gates are the one definition of which target an instruction
/// needs), then coverage's reason.
pub fn refusal(op: Opcode) -> Option<String> {
    let Status::NotSupported(why) = status(op) else {
        return None;
    };
    let gates = isa::forms_of(op)
        .iter()
        .flat_map(|f| std::iter::once(&f.gate).chain(f.alt_gate.as_ref()));
    // An architecture-specific gate (`sm_90a`) names its first target with its suffix.
    let lowest = gates
        .map(
            |g| match g.arch.and_then(|a| a.iter().min_by_key(|t| t.sm)) {
                Some(t) => (t.sm, if t.family { "f" } else { "a" }),
                None => (g.min_sm, ""),
            },
        )
        .min_by_key(|&(sm, _)| sm);
    Some(match lowest {
        Some((sm, suffix)) if sm > 20 => format!("requires sm_{sm}{suffix} or later: {why}"),
        _ => why.to_string(),
    })
}
