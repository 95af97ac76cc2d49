#!/usr/bin/env python3
"""Every bulk tensor copy/prefetch/reduction, cache-hint/multicast bulk copy, bulk reduction and
`.shared::cluster` mbarrier form of ptxvm's table (crates/isa/src/table/bulk_tensor.isa) that a target admits,
one instruction each: `python3 tests/corpus/gen_bulk_tensor.py sm_100a 8.8 file >
tests/corpus/bulk_tensor_forms_sm100a.ptx`. ptxas 12.9 -arch=<target> and `ptxvm check` accept
every line (sm_90 at PTX 8.0, sm_100a and sm_100f at PTX 8.8)."""
import sys


def coords(n):
    return "{" + ", ".join(f"%r{10 + i}" for i in range(n)) + "}"


def offs(n):
    return "{" + ", ".join(f"%h{1 + i}" for i in range(n)) + "}"


def forms(target, ver):
    v = tuple(int(x) for x in ver.split("."))
    sm = int(target[3:].rstrip("af"))
    cta_dst = v >= (8, 6)
    cta_group = sm >= 100 and sm < 120 and target[-1] in "af" and v >= (8, 6)
    out = []
    MB = ".mbarrier::complete_tx::bytes"
    for dst in [".shared::cluster"] + ([".shared::cta"] if cta_dst else []):
        out.append(f"cp.async.bulk{dst}.global{MB}.L2::cache_hint [%r1], [%rd1], 64, [%r2], %rd2;")
    out.append(f"cp.async.bulk.shared::cluster.global{MB}.multicast::cluster [%r1], [%rd1], 64, [%r2], %h1;")
    out.append(f"cp.async.bulk.shared::cluster.global{MB}.multicast::cluster.L2::cache_hint [%r1], [%rd1], 64, [%r2], %h1, %rd2;")
    out.append(f"cp.async.bulk.shared::cluster.shared::cta{MB} [%r1], [%r3], 64, [%r2];")
    out.append("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd1], [%r1], 64, %rd2;")
    if sm >= 100 and v >= (8, 6):
        out.append("cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r1], 64, %h1;")
        out.append("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [%rd1], [%r1], 64, %rd2, %h1;")
    out.append("cp.async.bulk.prefetch.L2.global [%rd1], 64;")
    out.append("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd1], %r4, %rd2;")
    groups = [""] + ([".cta_group::1", ".cta_group::2"] if cta_group else [])
    modes = [(d, m, "") for d in range(1, 6) for m in ("", ".tile")]
    modes += [(d, ".im2col", ", " + offs(d - 2)) for d in (3, 4, 5)]
    for d, mode, extra in modes:
        t = f"[%rd1, {coords(d)}]"
        for dst in [".shared::cluster"] + ([".shared::cta"] if cta_dst else []):
            for g in groups:
                head = f"cp.async.bulk.tensor.{d}d{dst}.global{mode}{MB}"
                out.append(f"{head}{g} [%r1], {t}, [%r2]{extra};")
                out.append(f"{head}{g}.L2::cache_hint [%r1], {t}, [%r2]{extra}, %rd2;")
                if dst == ".shared::cluster":
                    out.append(f"{head}.multicast::cluster{g} [%r1], {t}, [%r2]{extra}, %h7;")
                    out.append(f"{head}.multicast::cluster{g}.L2::cache_hint [%r1], {t}, [%r2]{extra}, %h7, %rd2;")
        pre = f"cp.async.bulk.prefetch.tensor.{d}d.L2.global{mode}"
        out.append(f"{pre} {t}{extra};")
        out.append(f"{pre}.L2::cache_hint {t}{extra}, %rd2;")
        if mode != ".im2col":
            for hint, pol in (("", ""), (".L2::cache_hint", ", %rd2")):
                out.append(f"cp.async.bulk.tensor.{d}d.global.shared::cta{mode}.bulk_group{hint} {t}, [%r1]{pol};")
    if sm >= 100 and v >= (8, 6):
        arch = target[-1] in "af" and sm < 120
        for d in (3, 4, 5):
            t = f"[%rd1, {coords(d)}]"
            for mode in (".im2col::w", ".im2col::w::128"):
                for dst in [".shared::cta"] + ([".shared::cluster"] if arch else []):
                    if mode.endswith("128") and not arch:
                        continue
                    for g in groups:
                        head = f"cp.async.bulk.tensor.{d}d{dst}.global{mode}{MB}"
                        out.append(f"{head}{g} [%r1], {t}, [%r2], {offs(2)};")
                        out.append(f"{head}{g}.L2::cache_hint [%r1], {t}, [%r2], {offs(2)}, %rd2;")
                        if dst == ".shared::cluster":
                            mc = f"{head}.multicast::cluster{g}"
                            out.append(f"{mc} [%r1], {t}, [%r2], {offs(2)}, %h7;")
                            out.append(f"{mc}.L2::cache_hint [%r1], {t}, [%r2], {offs(2)}, %h7, %rd2;")
                if arch:
                    out.append(f"cp.async.bulk.prefetch.tensor.{d}d.L2.global{mode} {t}, {offs(2)};")
                    out.append(f"cp.async.bulk.prefetch.tensor.{d}d.L2.global{mode}.L2::cache_hint {t}, {offs(2)}, %rd2;")
    for d in (3, 4, 5):
        t = f"[%rd1, {coords(d)}]"
        out.append(f"cp.async.bulk.tensor.{d}d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {coords(d)}], [%r1];")
        out.append(f"cp.async.bulk.tensor.{d}d.global.shared::cta.im2col_no_offs.bulk_group.L2::cache_hint {t}, [%r1], %rd2;")
    cluster_red = {"and": "b32", "or": "b32", "xor": "b32", "add": "u32 s32 u64",
                   "inc": "u32", "dec": "u32", "min": "u32 s32", "max": "u32 s32"}
    global_red = {"and": "b32 b64", "or": "b32 b64", "xor": "b32 b64",
                  "add": "u32 s32 u64 f32 f64 noftz.f16 noftz.bf16", "inc": "u32", "dec": "u32",
                  "min": "u32 s32 u64 s64 f16 bf16", "max": "u32 s32 u64 s64 f16 bf16"}
    for op, tys in cluster_red.items():
        for ty in tys.split():
            out.append(f"cp.reduce.async.bulk.shared::cluster.shared::cta{MB}.{op}.{ty} [%r1], [%r3], 64, [%r2];")
    for op, tys in global_red.items():
        for ty in tys.split():
            red = "cp.reduce.async.bulk.global.shared::cta.bulk_group"
            out.append(f"{red}.{op}.{ty} [%rd1], [%r1], 64;")
            out.append(f"{red}.L2::cache_hint.{op}.{ty} [%rd1], [%r1], %r4, %rd2;")
    for op in cluster_red:
        for d, mode in [(d, m) for d in range(1, 6) for m in ("", ".tile")] + [(d, ".im2col_no_offs") for d in (3, 4, 5)]:
            head = f"cp.reduce.async.bulk.tensor.{d}d.global.shared::cta.{op}{mode}.bulk_group"
            out.append(f"{head} [%rd1, {coords(d)}], [%r1];")
            out.append(f"{head}.L2::cache_hint [%rd1, {coords(d)}], [%r1], %rd2;")
    sems = [""] + [f".release.{s}" for s in ("cta", "cluster")]
    sems += [f".relaxed.{s}" for s in ("cta", "cluster")] if v >= (8, 6) else []
    for op in ("arrive", "arrive_drop"):
        for sem in sems:
            out.append(f"mbarrier.{op}{sem}.shared::cluster.b64 _, [%r1];")
            out.append(f"mbarrier.{op}{sem}.shared::cluster.b64 _, [%r1], 2;")
            out.append(f"mbarrier.{op}.expect_tx{sem}.shared::cluster.b64 _, [%r1], 64;")
    for op in ("expect_tx", "complete_tx"):
        for sem in [""] + ([".relaxed.cta", ".relaxed.cluster"] if v >= (8, 6) else []):
            out.append(f"mbarrier.{op}{sem}.shared::cluster.b64 [%r1], 64;")
    return out


if __name__ == "__main__":
    target, ver = sys.argv[1], sys.argv[2]
    lines = forms(target, ver)
    if len(sys.argv) > 3 and sys.argv[3] == "file":
        print(f"// Every bulk tensor copy/prefetch/reduction, cache-hint and multicast bulk copy, bulk reduction and\n"
              f"// .shared::cluster mbarrier form of the instruction table that .target {target} admits at PTX {ver},\n"
              f"// one instruction each"
              f" (generated by tests/corpus/gen_bulk_tensor.py); ptxas 12.9 -arch={target} accepts every line.")
        print(f".version {ver}\n.target {target}\n.address_size 64\n\n.visible .entry bulk_tensor_forms()\n{{")
        print("\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<4>;\n\t.reg .b16 %h<8>;")
        for l in lines:
            print("\t" + l)
        print("\tret;\n}")
    else:
        print("\n".join(lines))
