//! What the checker lowers: each test checks a small module and compares IR values with
//! expectations computed here from the spec's rules (sizes, offsets, two's complement, IEEE
//! bits), not with output pasted from the checker.

use ir::{
    AddrBase, Address, FuncId, InstIdx, Operand, Param, RegId, RelocTarget, Selector, SelectorKind,
    VarType,
};
use isa::{Opcode, SpecialReg, Type};

fn lower(text: &str) -> ir::Module {
    let file = diag::SourceFile::new("t.ptx", text);
    let (m, diags) = check::check_source(&file);
    assert!(!diag::has_errors(&diags), "{}", diag::render(&file, &diags));
    m.expect("module")
}

const HEAD: &str = ".version 7.0\n.target sm_61\n.address_size 64\n";

fn kernel(body: &str) -> ir::Module {
    lower(&format!("{HEAD}.visible .entry k()\n{{\n{body}\n}}\n"))
}

fn reg(f: &ir::Function, name: &str) -> RegId {
    let i = f
        .regs
        .iter()
        .position(|r| r.name == name)
        .unwrap_or_else(|| panic!("no {name}"));
    RegId(i as u32)
}

#[test]
fn parameterized_registers_expand_in_order() {
    let m = kernel(".reg .b32 %r<3>;\n.reg .f64 %fd<2>;\nret;");
    let f = &m.functions[0];
    let names: Vec<(String, Type)> = f.regs.iter().map(|r| (r.name.to_string(), r.ty)).collect();
    let names: Vec<(&str, Type)> = names.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    assert_eq!(
        names,
        [
            ("%r0", Type::B32),
            ("%r1", Type::B32),
            ("%r2", Type::B32),
            ("%fd0", Type::F64),
            ("%fd1", Type::F64)
        ]
    );
}

#[test]
fn immediates_take_the_operand_type_bits() {
    let m = kernel(
        ".reg .b32 %r<2>;\n.reg .f32 %f<2>;\n.reg .f64 %d<2>;\n.reg .b16 %h<2>;\n\
         add.s32 %r0, %r1, -1;\nadd.f32 %f0, %f1, 1.5;\nmov.b32 %r0, 0f3f800000;\n\
         add.f64 %d0, %d1, 0.1;\nadd.u16 %h0, %h1, -2;\nmul.lo.s32 %r0, %r1, 0x7fffffff;\nret;",
    );
    let insts = m.functions[0].insts();
    let imm = |i: usize, k: usize| insts[i].operands[k].as_imm().unwrap();
    assert_eq!(imm(0, 2), u64::from((-1i32) as u32));
    assert_eq!(imm(1, 2), u64::from(1.5f32.to_bits()));
    assert_eq!(imm(2, 1), 0x3f80_0000);
    assert_eq!(imm(3, 2), 0.1f64.to_bits());
    assert_eq!(imm(4, 2), u64::from((-2i16) as u16));
    assert_eq!(imm(5, 2), i32::MAX as u64);
}

#[test]
fn labels_resolve_forward_and_backward() {
    let m = kernel(
        ".reg .pred %p;\n.reg .b32 %r;\nTOP:\nadd.s32 %r, %r, 1;\n@%p bra DONE;\n@!%p bra TOP;\nDONE:\nret;",
    );
    let f = &m.functions[0];
    let insts = f.insts();
    assert_eq!(insts[1].operands[0], Operand::Label(InstIdx(3)));
    assert_eq!(insts[2].operands[0], Operand::Label(InstIdx(0)));
    let g1 = insts[1].guard.unwrap();
    let g2 = insts[2].guard.unwrap();
    assert!(!g1.negated && g2.negated);
    assert_eq!(g1.reg, reg(f, "%p"));
    assert!(f.labels.contains(&("DONE".to_string(), InstIdx(3))));
}

#[test]
fn register_initializers_become_leading_movs_and_shift_labels() {
    let m = lower(&format!(
        "{HEAD}.visible .entry k()\n{{\n.reg .s32 i = 7;\nL:\nadd.s32 i, i, 1;\nbra L;\n}}\n"
    ));
    let f = &m.functions[0];
    let insts = f.insts();
    assert_eq!(insts[0].op, Opcode::Mov);
    assert_eq!(
        insts[0].operands[..],
        [Operand::Reg(reg(f, "i")), Operand::Imm(7)]
    );
    assert_eq!(insts[2].operands[0], Operand::Label(InstIdx(1)));
}

#[test]
fn addresses_fold_offsets() {
    let m = lower(&format!(
        "{HEAD}.global .u32 tbl[8];\n.struct pt {{ .s32 x; .f64 y; .s16 z; }};\n.global pt p;\n\
         .visible .entry k()\n{{\n.reg .b64 %rd;\n.reg .b32 %r;\n.reg .f64 %d;\n\
         ld.global.u32 %r, [%rd+8];\nld.global.u32 %r, [%rd-4];\nld.global.u32 %r, [tbl+12];\n\
         ld.global.u32 %r, tbl[5];\nld.global.f64 %d, [p.y];\nld.global.s32 %r, [0x100];\nret;\n}}\n"
    ));
    let f = &m.functions[0];
    let tbl = ir::VarId(m.vars.iter().position(|v| v.name == "tbl").unwrap() as u32);
    let p = ir::VarId(m.vars.iter().position(|v| v.name == "p").unwrap() as u32);
    let rd = reg(f, "%rd");
    let addr = |i: usize| match &f.insts()[i].operands[1] {
        Operand::Address(a) => *a,
        o => panic!("{o:?}"),
    };
    assert_eq!(
        addr(0),
        Address {
            base: AddrBase::Reg(rd),
            offset: 8
        }
    );
    assert_eq!(
        addr(1),
        Address {
            base: AddrBase::Reg(rd),
            offset: -4
        }
    );
    assert_eq!(
        addr(2),
        Address {
            base: AddrBase::Var(tbl),
            offset: 12
        }
    );
    // §6.4.2: a[5] of .u32 elements is byte 20.
    assert_eq!(
        addr(3),
        Address {
            base: AddrBase::Var(tbl),
            offset: 20
        }
    );
    // §5.3.4 struct layout: x at 0 (4 bytes), y aligned to 8.
    assert_eq!(
        addr(4),
        Address {
            base: AddrBase::Var(p),
            offset: 8
        }
    );
    assert_eq!(
        addr(5),
        Address {
            base: AddrBase::Absolute,
            offset: 0x100
        }
    );
    // size: 4 + pad 4 + 8 + 2, rounded to the 8-byte alignment = 24.
    assert_eq!(m.vars[p.index()].size, 24);
    assert_eq!(m.vars[p.index()].align, 8);
}

#[test]
fn variable_address_as_value() {
    let m = kernel(
        ".reg .b64 %rd;\n.shared .align 16 .b8 smem[64];\nmov.u64 %rd, smem;\nmov.u64 %rd, smem+16;\nret;",
    );
    let f = &m.functions[0];
    let smem = f.locals[0];
    assert_eq!(m.vars[smem.index()].size, 64);
    assert_eq!(m.vars[smem.index()].align, 16);
    assert_eq!(
        f.insts()[0].operands[1],
        Operand::VarAddr {
            var: smem,
            offset: 0
        }
    );
    assert_eq!(
        f.insts()[1].operands[1],
        Operand::VarAddr {
            var: smem,
            offset: 16
        }
    );
}

#[test]
fn initializers_are_little_endian_bytes_with_relocations() {
    let m = lower(&format!(
        "{HEAD}.global .u32 a[3] = {{1, 0x01020304, -1}};\n.global .f32 f = 1.5;\n\
         .global .s16 grid[][] = {{ {{1, 2}}, {{3, 4}}, {{5, 6}} }};\n\
         .global .u64 ptr = a + 4;\n.global .v2 .u8 uv = {{7, 8}};\n"
    ));
    let var = |n: &str| m.vars.iter().find(|v| v.name == n).unwrap();
    let bytes = |n: &str| var(n).init.as_ref().unwrap().bytes.clone();
    let mut want = Vec::new();
    for v in [1u32, 0x0102_0304, u32::MAX] {
        want.extend(v.to_le_bytes());
    }
    assert_eq!(bytes("a"), want);
    assert_eq!(bytes("f"), 1.5f32.to_le_bytes().to_vec());
    // §5.3.3: dimensions from the initializer: [3][2] of .s16 = 12 bytes.
    assert_eq!(var("grid").dims, vec![3, 2]);
    let want: Vec<u8> = (1i16..=6).flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(bytes("grid"), want);
    let ptr = var("ptr").init.as_ref().unwrap();
    assert_eq!(ptr.bytes, vec![0; 8]);
    let a_id = ir::VarId(m.vars.iter().position(|v| v.name == "a").unwrap() as u32);
    assert_eq!(ptr.relocs.len(), 1);
    assert_eq!(ptr.relocs[0].target, RelocTarget::Var(a_id));
    assert_eq!(
        (
            ptr.relocs[0].offset,
            ptr.relocs[0].width,
            ptr.relocs[0].addend
        ),
        (0, 8, 4)
    );
    assert_eq!(bytes("uv"), vec![7, 8]);
    assert_eq!(
        var("uv").ty,
        VarType::Scalar {
            ty: Type::U8,
            vector: 2
        }
    );
}

#[test]
fn f16_initializers_round_to_half_bits() {
    let m = lower(&format!("{HEAD}.global .f16 h[3] = {{1.0, 0.1, -2.5}};\n"));
    let b = &m.vars[0].init.as_ref().unwrap().bytes;
    // binary16: 1.0 = 0x3c00; 0.1 ≈ 0x2e66 (0.0999755859375); -2.5 = 0xc100.
    assert_eq!(b, &[0x00, 0x3c, 0x66, 0x2e, 0x00, 0xc1]);
}

#[test]
fn nested_scopes_get_distinct_registers() {
    let m = kernel(
        ".reg .b32 %a;\nmov.b32 %a, 1;\n{\n.reg .b32 %a;\nmov.b32 %a, 2;\n}\nmov.b32 %a, 3;\nret;",
    );
    let insts = m.functions[0].insts();
    let dst = |i: usize| insts[i].operands[0].as_reg().unwrap();
    assert_ne!(dst(0), dst(1));
    assert_eq!(dst(0), dst(2));
}

#[test]
fn calls_name_the_callee_and_argument_lists() {
    let m = lower(&format!(
        "{HEAD}.func (.param .b32 r) f(.param .b32 a, .param .b32 b)\n{{\nret;\n}}\n\
         .visible .entry k()\n{{\n.param .b32 x;\n.param .b32 y;\n.param .b32 z;\n\
         call (z), f, (x, y);\nret;\n}}\n"
    ));
    let k = &m.functions[1];
    let call = &k.insts()[0];
    assert_eq!(call.op, Opcode::Call);
    let ids: Vec<ir::VarId> = k.locals.clone();
    assert_eq!(
        call.operands[..],
        [
            Operand::List(
                vec![Operand::VarAddr {
                    var: ids[2],
                    offset: 0
                }]
                .into()
            ),
            Operand::Func(FuncId(0)),
            Operand::List(
                vec![
                    Operand::VarAddr {
                        var: ids[0],
                        offset: 0
                    },
                    Operand::VarAddr {
                        var: ids[1],
                        offset: 0
                    }
                ]
                .into()
            ),
        ]
    );
    assert_eq!(m.functions[0].params.len(), 2);
    assert!(matches!(m.functions[0].rets[..], [Param::Var(_)]));
}

#[test]
fn special_registers_and_components() {
    let m = kernel(
        ".reg .b32 %r;\nmov.u32 %r, %tid.y;\nmov.u32 %r, %ctaid.x;\nmov.u32 %r, %envreg5;\nmov.u32 %r, %laneid;\nret;",
    );
    let src = |i: usize| m.functions[0].insts()[i].operands[1].clone();
    assert_eq!(
        src(0),
        Operand::Special {
            reg: SpecialReg::Tid,
            index: 1
        }
    );
    assert_eq!(
        src(1),
        Operand::Special {
            reg: SpecialReg::Ctaid,
            index: 0
        }
    );
    assert_eq!(
        src(2),
        Operand::Special {
            reg: SpecialReg::Envreg,
            index: 5
        }
    );
    assert_eq!(
        src(3),
        Operand::Special {
            reg: SpecialReg::Laneid,
            index: 0
        }
    );
}

#[test]
fn vector_loads_pairs_and_omitted_operands() {
    let m = kernel(
        ".reg .f32 %f<4>;\n.reg .b64 %rd;\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\n\
         ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd];\nsetp.lt.s32 %p0|%p1, %r0, %r1;\n\
         bar.red.popc.u32 %r2, 0, %p0;\nret;",
    );
    let f = &m.functions[0];
    let insts = f.insts();
    let fs: Vec<Operand> = (0..4)
        .map(|i| Operand::Reg(reg(f, &format!("%f{i}"))))
        .collect();
    assert_eq!(insts[0].operands[0], Operand::Vector(fs.into()));
    assert_eq!(
        insts[1].operands[0],
        Operand::PredPair(reg(f, "%p0"), Some(reg(f, "%p1")))
    );
    // `bar.red.popc.u32 d, a{, b}, {!}c`: b left out.
    assert_eq!(insts[2].operands.len(), insts[2].form.operands.len());
    assert_eq!(insts[2].operands[2], Operand::Omitted);
    assert_eq!(insts[2].operands[3], Operand::Reg(reg(f, "%p0")));
}

#[test]
fn video_selectors_and_negation() {
    let m = kernel(
        ".reg .b32 %r<4>;\n.reg .pred %p<2>;\nvadd.u32.u32.u32.add %r0, %r1.b2, %r2.h1, %r3;\n\
         vadd4.u32.u32.u32 %r0, %r1.b7654, %r2, %r3;\nsetp.eq.and.s32 %p0, %r1, %r2, !%p1;\nret;",
    );
    let f = &m.functions[0];
    let insts = f.insts();
    let sel = |kind, lanes: &[u8]| {
        let mut l = [0u8; 4];
        l[..lanes.len()].copy_from_slice(lanes);
        Selector {
            kind,
            lanes: l,
            len: lanes.len() as u8,
        }
    };
    assert_eq!(
        insts[0].operands[1],
        Operand::Selected {
            reg: reg(f, "%r1"),
            sel: sel(SelectorKind::Byte, &[2])
        }
    );
    assert_eq!(
        insts[0].operands[2],
        Operand::Selected {
            reg: reg(f, "%r2"),
            sel: sel(SelectorKind::Half, &[1])
        }
    );
    assert_eq!(
        insts[1].operands[1],
        Operand::Selected {
            reg: reg(f, "%r1"),
            sel: sel(SelectorKind::Byte, &[7, 6, 5, 4])
        }
    );
    assert_eq!(insts[2].operands[3], Operand::NotPred(reg(f, "%p1")));
}

#[test]
fn ptx_1_1_entry_parameters_and_cta_dims() {
    let m = lower(
        ".version 1.1\n.target sm_10\n.entry k [4][8][16]\n{\n.reg .u32 r;\n.param .u32 n;\n\
         ld.param.u32 r, [n];\nexit;\n}\n",
    );
    let f = &m.functions[0];
    // Table 68: [NTID.2][NTID.1][NTID.0], stored x first.
    assert_eq!(f.cta_dims, Some([16, 8, 4]));
    assert_eq!(f.params.len(), 1);
    let Param::Var(n) = f.params[0] else { panic!() };
    assert_eq!(m.vars[n.index()].name, "n");
    assert_eq!(m.address_size, ir::AddressSize::Bits32);
}

#[test]
fn performance_directives_and_texture_ids() {
    let m = lower(&format!(
        "{HEAD}.tex .u32 tex_a;\n.tex[2] .u32 tex_b;\n.tex .u32 tex_c;\n\
         .visible .entry k() .maxntid 128, 2 .minnctapersm 4\n{{\nret;\n}}\n"
    ));
    let ids: Vec<Option<u32>> = m.vars.iter().map(|v| v.tex_id).collect();
    // §5.1.8 example: unbound textures count 0, 1, … regardless of explicit ids.
    assert_eq!(ids, vec![Some(0), Some(2), Some(1)]);
    let perf = m.functions[0].perf;
    assert_eq!(perf.maxntid, Some([128, 2, 1]));
    assert_eq!(perf.minnctapersm, Some(4));
}

#[test]
fn relaxed_sizes_for_ld_st_cvt() {
    let m = kernel(
        ".reg .b32 %r<2>;\n.reg .b64 %rd;\n.reg .b16 %h;\nld.global.u8 %r0, [%rd];\nst.global.u8 [%rd], %r0;\n\
         cvt.u32.u16 %r0, %r1;\nld.global.u32 %rd, [%rd];\nret;",
    );
    assert_eq!(m.functions[0].insts().len(), 5);
}

#[test]
fn every_error_in_one_run() {
    let text = format!(
        "{HEAD}.visible .entry k()\n{{\n.reg .b32 %r;\nadd.s32 %r, %r, %nope;\nbra NOWHERE;\nadd.sat.u32 %r, %r, %r;\nret;\n}}\n"
    );
    let file = diag::SourceFile::new("t.ptx", text);
    let (m, diags) = check::check_source(&file);
    assert!(m.is_none());
    let lines: Vec<usize> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| file.line_col(d.span.start).0)
        .collect();
    assert_eq!(lines, vec![7, 8, 9]);
}

#[test]
fn warp_sz_is_a_predefined_constant() {
    let m = kernel(".reg .b32 %r;\nmov.u32 %r, WARP_SZ;\nadd.u32 %r, %r, WARP_SZ;\nret;");
    let insts = m.functions[0].insts();
    let want = Operand::Special {
        reg: SpecialReg::WarpSz,
        index: 0,
    };
    assert_eq!(insts[0].operands[1], want);
    assert_eq!(insts[1].operands[2], want);
}
