"""fuzz_target: one fuzz target = a binary (libFuzzer, AFL++ or replay main, by config) and a
test that replays corpus/<name>/, corpus/regressions/<name>/ and the conformance vectors."""

def fuzz_target(name, srcs = None, mutator = True, exact_ids = True, deps = []):
    native.cc_binary(
        name = name,
        srcs = srcs or [name + ".c"],
        deps = [":fuzz", "//codec"] + deps + select({
            ":libfuzzer": [":mutator_libfuzzer"] if mutator else [],
            ":afl": [],
            "//conditions:default": [":replay_main"],
        }),
        linkopts = select({
            ":libfuzzer": ["-fsanitize=fuzzer"],
            ":afl": ["/usr/lib/afl/libAFLDriver.a"],
            "//conditions:default": [],
        }),
    )
    native.sh_test(
        name = name + "_replay",
        size = "small",
        srcs = ["replay_test.sh"],
        args = (["--exact-ids"] if exact_ids else []) + [
            "$(location :%s)" % name,
            "$(location :conformance_seeds)",
            "corpus/" + name,
            "corpus/regressions/" + name,
        ],
        data = [
            ":" + name,
            ":conformance_seeds",
            "//corpus:" + name,
        ],
    )
