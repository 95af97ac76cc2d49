//! `.sreg` declarations. ptx-isa-1.1 chapter 8 writes each special register's syntax as a
//! declaration (`.sreg .v3 .u16 %tid;`), while §5.1.2 says "All special registers are
//! predefined". A `.sreg` declaration is therefore accepted only as a restatement of a
//! predefined register with its own type, with a warning that it changes nothing; anything else
//! is an error saying why.

use crate::ctx::Checker;
use crate::decl::isa_type;
use syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn check_sreg_declaration(&mut self, decl: &ast::VariableDecl) {
        let mut restated = Vec::new();
        for d in &decl.declarators {
            let name = d.name.text(self.src);
            // `%tid.0`: one component, declared as a scalar of the component type.
            let Some((info, comp)) = isa::lookup_special_reg(name) else {
                self.error(
                    d.name.span,
                    format!(
                        "`.sreg` can only restate a predefined special register (ptx-isa-1.1 \
                         §5.1.2: \"All special registers are predefined\"); `{name}` is not one"
                    ),
                );
                continue;
            };
            if let Err(e) = info.check_gate(self.target.sm, self.version) {
                self.error(d.name.span, e.to_string());
                continue;
            }
            if d.init.is_some() || !d.dims.is_empty() || d.range.is_some() {
                self.error(
                    d.span,
                    format!("special register `{name}` cannot be an array or initialized"),
                );
                continue;
            }
            let want = info.type_for(self.version);
            let declared = decl.ty.and_then(|ts| match ts.base {
                ast::BaseType::Scalar(st) => isa_type(st).map(|t| (t, ts.vector.is_some())),
                ast::BaseType::Named(_) => None,
            });
            let vector = info.vector && comp.is_none();
            let vec_word = if vector { "a vector of " } else { "" };
            match declared {
                Some((t, v)) if t == want && v == vector => restated.push(name),
                _ => self.error(
                    decl.ty.map_or(decl.span, |t| t.span),
                    format!(
                        "`{name}` is predefined as {vec_word}`{}` in PTX ISA version {}; a \
                         `.sreg` declaration can only restate that type",
                        want.suffix(),
                        self.version
                    ),
                ),
            }
        }
        if let [one] = restated[..] {
            self.warn(
                decl.span,
                format!(
                    "`{one}` is predefined (ptx-isa-1.1 §5.1.2); this `.sreg` declaration \
                     restates it and is ignored"
                ),
            );
        } else if !restated.is_empty() {
            self.warn(
                decl.span,
                format!(
                    "`{}` are predefined (ptx-isa-1.1 §5.1.2); this `.sreg` declaration \
                     restates them and is ignored",
                    restated.join("`, `")
                ),
            );
        }
    }
}
