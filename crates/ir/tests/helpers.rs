//! The small query helpers on IR values.

use diag::Span;
use ir::{FuncId, FuncKind, Function, Linkage, Module, Target, VarScope, VarType, Variable};

fn func(name: &str, kind: FuncKind) -> Function {
    Function::declared(name.to_string(), kind, Linkage::Visible, Span::default())
}

fn var(ty: VarType, dims: Vec<u64>) -> Variable {
    Variable {
        name: "v".into(),
        space: isa::Space::Global,
        const_bank: 0,
        ty,
        dims,
        size: 0,
        align: 1,
        init: None,
        scope: VarScope::Module,
        linkage: Linkage::Internal,
        ptr: None,
        tex_id: None,
        span: Span::default(),
    }
}

#[test]
fn lookup_by_name_and_entries() {
    let m = Module {
        source_name: "m.ptx".into(),
        version: ir::PtxVersion::new(7, 0),
        target: Target::default(),
        address_size: ir::AddressSize::Bits64,
        vars: Vec::new(),
        globals: Vec::new(),
        functions: vec![func("helper", FuncKind::Func), func("k", FuncKind::Entry)],
        prototypes: Vec::new(),
    };
    assert_eq!(m.function_by_name("k"), Some(FuncId(1)));
    assert_eq!(m.function_by_name("nope"), None);
    let entries: Vec<FuncId> = m.entries().map(|(id, _)| id).collect();
    assert_eq!(entries, vec![FuncId(1)]);
    assert!(m.function(FuncId(2)).is_none());
    assert!(m.functions[0].insts().is_empty());
    assert_eq!(m.address_size.bytes(), 8);
}

#[test]
fn element_count_multiplies_dims_and_lanes() {
    let v4 = VarType::Scalar {
        ty: isa::Type::F32,
        vector: 4,
    };
    assert_eq!(var(v4.clone(), vec![3, 2]).element_count(), 24);
    assert_eq!(var(v4, vec![]).element_count(), 4);
    let s = VarType::Scalar {
        ty: isa::Type::U8,
        vector: 1,
    };
    assert_eq!(var(s, vec![0]).element_count(), 0);
}
