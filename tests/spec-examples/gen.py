#!/usr/bin/env python3
"""Regenerates tests/spec-examples/ from the spec files' example lines.

Each example instruction becomes one `.entry` with exactly the declarations it needs; the
operand types come from the isa crate's table (`cargo run -p isa --example declare`). One
`.ptx` file per spec section, at the lowest `.version`/`.target` its instructions' gates allow.
Corrections of obvious typos in the spec's examples are listed in FIXES (and in README.md).

Run from the repository root: python3 tests/spec-examples/gen.py
Copies for NVIDIA's ptxas (target raised to sm_50, 64-bit addresses):
    python3 tests/spec-examples/gen.py --validate /tmp/dir
"""
import os
import re
import subprocess
import sys

SPEC = "/work/shared/spec"
OUT = "tests/spec-examples"

# Spec example lines that are not valid PTX as printed: typo -> correction.
FIXES = {
    "or.b32  mask mask,0x00010001": "or.b32  mask,mask,0x00010001;",
    "mul.f32 circumf,radius,pi": "mul.f32 circumf,radius,pi;",
    "@!p div.f32      ratio,x,y": "@!p div.f32      ratio,x,y;",
    # `p` is both the guard predicate and the address register in the spec's line.
    "@p  atom.global.cas.b32  d,[p],my_val,my_new_val;": "@p  atom.global.cas.b32  d,[a],my_val,my_new_val;",
}

# Spec example lines that the spec's own syntax block excludes (NVIDIA's ptxas rejects them
# too); they are in tests/spec-reject/spec-errata.ptx instead.
ERRATA = {
    "bfe.b32  d,a,start,len;",
    "vset4.u32.u32.ne.max  r1, r2, r3, r0;",
    "vmin4.s32.u32.u32.add  r1.b00, r2.b0000, r3.b2222, r1;",
}

# Functions the call examples (ptx-isa-1.1 Table 48) call, declared PTX 1.x style with register
# parameters (ptx-isa-1.1 Table 69 .func).
CALLEES = {
    "init": ".func init\n{\n    ret;\n}\n",
    "g": ".func g (.reg .b32 x)\n{\n    ret;\n}\n",
    "h": ".func (.reg .b32 r) h (.reg .b32 x, .reg .b32 y)\n{\n    mov.b32 r, x;\n    ret;\n}\n",
}

# Operands the spec's prose says are variables whose address is taken (ptx-isa-1.1 Table 40).
ADDRESS_TAKEN = {"mov.u32  ptr, A;": ("A",)}

INSN = re.compile(r"^\s*(@!?%?\w+\s+)?[a-z][a-z0-9]*(\.[\w:]+)*\s*[^=]*;?\s*$")
PTX_FOR_SM = [(10, (1, 0)), (12, (1, 2)), (13, (1, 2)), (20, (2, 0)), (30, (3, 0)), (32, (4, 0)),
              (35, (3, 1)), (50, (4, 0)), (52, (4, 1)), (53, (4, 2)), (60, (5, 0)), (61, (5, 0)),
              (70, (6, 0)), (75, (6, 3)), (80, (7, 0)), (86, (7, 1)), (90, (7, 8))]
SMS = [s for s, _ in PTX_FOR_SM]


def clean(line):
    line = line.split("//")[0].rstrip()
    stripped = line.strip()
    for bad, good in FIXES.items():
        if stripped == bad:
            return good
    return stripped


def md_sections(path):
    """(section name, [example lines]) for markdown spec files."""
    text = open(path, encoding="utf-8").read().splitlines()
    sections, name, i = [], None, 0
    while i < len(text):
        ln = text[i]
        m = re.match(r"^#{3,6} ([\d.]+)\s+\[?([^\]]*)", ln)
        if m:
            title = m.group(2)
            title = re.sub(r".*:\s*", "", title).replace("`", "")
            name = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        elif not m and re.match(r"^9\.7\.\d+\.\d+\.\s", ln):
            # ptx-extended-precision.md uses plain-text headings
            title = re.sub(r".*:\s*", "", ln).strip()
            name = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        if ln.strip() == "Examples" and name:
            lines, j = [], i + 1
            in_code = False
            while j < len(text):
                t = text[j]
                if t.startswith("```"):
                    if in_code:
                        break
                    in_code = True
                elif t.startswith("#") or re.match(r"^9\.7\.\d+\.\d+\.\s", t):
                    j -= 1  # let the outer loop read this heading
                    break
                elif t.strip() and t.strip() != "ptx":
                    lines.append(t)
                j += 1
            sections.append((name, lines))
            i = j
        i += 1
    return sections


def isa11_sections(path):
    text = open(path, encoding="utf-8").read().splitlines()
    sections, name, cur = [], None, None
    for idx, ln in enumerate(text):
        if re.match(r"^Table (\d+)\.", ln) and ":" not in ln and idx + 1 < len(text):
            ln = ln.rstrip() + " " + text[idx + 1].strip()  # titles wrapped over two lines
        m = re.match(r"^Table (\d+)\.\s+.*:\s+(\S+)", ln)
        if m and int(m.group(1)) > 67:
            name, cur = None, None  # chapter 9 directives: not instructions
            continue
        if m and 16 <= int(m.group(1)) <= 67:
            name = m.group(2).lower().replace("%", "sreg-").replace("{", "braces").replace("}", "")
            if name == "@":
                name = "guard"
            cur = None
            continue
        if re.match(r"^(Chapter \d|\d+\.\d+\.?\s+[A-Z]|Table \d+)", ln) or ln.startswith("Instructions:"):
            cur = None
            continue
        if ln.startswith("Examples") and name:
            cur = []
            sections.append((name, cur))
            ln = ln[len("Examples"):]
        if cur is not None and ln.strip():
            cur.append(ln)
    return sections


def run_declare(lines, addr):
    env = dict(os.environ, CARGO_TARGET_DIR="/work/targets/isa")
    out = subprocess.run(["cargo", "run", "-q", "-p", "isa", "--example", "declare", "--", addr],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, env=env,
                         check=True).stdout.splitlines()
    return out


def ver_tuple(s):
    a, b = s.split(".")
    return int(a), int(b)


VALIDATE = "--validate" in sys.argv


def build(spec_name, section, raw_lines, legacy):
    insns = []
    for ln in raw_lines:
        c = clean(ln)
        if not c or c.startswith(".") or c.startswith("{") or ":" in c.split()[0]:
            continue
        if not INSN.match(c) or not c.endswith(";") or c in ERRATA:
            continue
        insns.append(c)
    if not insns:
        return None, []
    addr = "32" if legacy and not VALIDATE else "64"
    decl_lines = run_declare(insns, addr)
    kernels, module, errors = [], [], []
    sm, ptx, maxptx = 10, (1, 0), None
    for k, (insn, d) in enumerate(zip(insns, decl_lines)):
        if d.startswith("ERR"):
            errors.append(f"{insn}  // {d}")
            continue
        fields = d.split("\t")
        _, gsm, gptx, gmax = fields[0].split()
        sm = max(sm, int(gsm))
        ptx = max(ptx, ver_tuple(gptx))
        if gmax != "-":
            maxptx = min(maxptx or (99, 9), ver_tuple(gmax))
        regs, labels = [], []
        for f in fields[1:]:
            parts = f.split()
            kind, name = parts[0], parts[-1]
            if name in ADDRESS_TAKEN.get(insn, ()):
                kind = "var"
            if kind == "reg":
                regs.append(f"    .reg {parts[1]} {name};")
            elif kind == "vreg":
                regs.append(f"    .reg .v{parts[1]} {parts[2]} {name};")
            elif kind == "label":
                labels.append(name)
            elif kind == "tex":
                # ptx-isa-1.1 section 5.1.8: `.tex tex_a;` (no type); PTX ISA 8.x: `.global .texref`.
                module.append(f".tex {name};" if legacy else f".global .texref {name};")
            elif kind == "var":
                module.append(f".global {parts[1]} {name}[8];")
            elif kind == "func":
                module.append(CALLEES[name])
            elif kind == "param":
                regs.append(f"    .reg .b32 {name};")
        body = "\n".join(regs + [f"    {insn}"] + [f"{l}:" for l in labels] + ["    ret;"])
        kname = re.sub(r"[^A-Za-z0-9_]", "_", f"{spec_name}_{section}_{k}")
        kernels.append(f".entry {kname}\n{{\n{body}\n}}\n")
    # The target: the highest sm any line needs, and a version that knows that target.
    sm = min(s for s in SMS if s >= sm)
    need = dict(PTX_FOR_SM)[sm]
    ptx = max(ptx, need)
    if legacy and ptx < (1, 1):
        ptx = (1, 1)
    if VALIDATE:  # a copy for NVIDIA's ptxas, whose lowest target is sm_50
        sm, ptx = max(sm, 50), max(ptx, (4, 0) if sm <= 50 else dict(PTX_FOR_SM)[max(sm, 50)])
    header = [f"// Examples of {spec_name}, section {section}, each wrapped in a minimal kernel.",
              "// Generated by tests/spec-examples/gen.py; operand types from crates/isa.",
              f".version {ptx[0]}.{ptx[1]}", f".target sm_{sm}"]
    if ptx >= (2, 3) or VALIDATE:
        header.append(".address_size 64")
    mod = sorted(set(module))
    text = "\n".join(header) + "\n\n" + ("\n".join(mod) + "\n\n" if mod else "") + "\n".join(kernels)
    return text, errors


def main():
    out = sys.argv[sys.argv.index("--validate") + 1] if VALIDATE else OUT
    jobs = [
        ("ptx-integer-arithmetic", md_sections(f"{SPEC}/ptx-integer-arithmetic.md"), False),
        ("ptx-extended-precision", md_sections(f"{SPEC}/ptx-extended-precision.md"), False),
        ("ptx-video", md_sections(f"{SPEC}/ptx-video.md"), False),
        ("ptx-isa-1.1", isa11_sections(f"{SPEC}/ptx-isa-1.1.txt"), True),
    ]
    all_errors = []
    for spec_name, sections, legacy in jobs:
        os.makedirs(f"{out}/{spec_name}", exist_ok=True)
        seen = {}
        for section, lines in sections:
            seen[section] = seen.get(section, 0) + 1
            sec = section if seen[section] == 1 else f"{section}-{seen[section]}"
            text, errors = build(spec_name, sec, lines, legacy)
            all_errors += [f"{spec_name}/{sec}: {e}" for e in errors]
            if text:
                with open(f"{out}/{spec_name}/{sec}.ptx", "w", encoding="utf-8") as f:
                    f.write(text)
    for e in all_errors:
        print("not wrapped:", e, file=sys.stderr)


if __name__ == "__main__":
    main()
