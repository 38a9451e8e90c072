#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""campaign_report_test — the fuzzing tools tell the truth and never lose an input (issue 14):
AFL++ rates are measured, not copied from its frozen figure; the coverage figure counts the
library, not the targets that ran; the plot keeps libFuzzer and AFL++ apart; the nightly
ClusterFuzzLite workflow says what its budget is; corpus rewrites are atomic and refuse what
they would lose.

  campaign_report_test.py CAMPAIGN FUZZLIB WORKFLOW"""
import importlib.machinery
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import unittest

CAMPAIGN, FUZZLIB, WORKFLOW = (os.path.abspath(a) for a in sys.argv[1:4])
del sys.argv[1:4]
sys.path.insert(0, os.path.dirname(FUZZLIB))


def load(path, name):
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


fuzzlib = load(FUZZLIB, "fuzzlib")
campaign = load(CAMPAIGN, "campaign")


def stats(execs, run_time=None, per_sec="84815.00", edges=100):
    st = {"execs_done": str(execs), "execs_per_sec": per_sec, "edges_found": str(edges), "corpus_count": "7",
          "saved_crashes": "0", "saved_hangs": "0"}
    if run_time is not None:
        st["run_time"] = str(run_time)
    return st


PLOT_HEADER = ("# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, map_size, saved_crashes, "
               "saved_hangs, max_depth, execs_per_sec, total_execs, edges_found\n")


def plot_row(t, execs, edges, per_sec="84815.00"):
    return "%d, 0, 1, 1500, 10, 2, 29.67%%, 0, 0, 3, %s, %d, %d\n" % (t, per_sec, execs, edges)


class AflRates(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.plot = os.path.join(self.d, "plot_data")

    def tearDown(self):
        shutil.rmtree(self.d)

    def write(self, *rows):
        with open(self.plot, "w") as f:
            f.write(PLOT_HEADER + "".join(rows))

    def test_rates_are_measured_between_rows(self):
        self.write(plot_row(61, 150000, 1400), plot_row(66, 162500, 1410), plot_row(71, 172500, 1420, per_sec="inf"))
        pts = campaign.afl_plot_timeline(self.plot)
        self.assertEqual([p[0] for p in pts], [61, 66, 71])
        self.assertEqual([p[1] for p in pts], [1400, 1410, 1420])
        self.assertEqual([p[3] for p in pts], [None, 2500.0, 2000.0])  # never the frozen 84,815 nor inf

    def test_a_repeated_or_torn_row_is_skipped(self):
        self.write(plot_row(61, 150000, 1400), plot_row(61, 150000, 1400), "66, 0, 1")
        self.assertEqual(len(campaign.afl_plot_timeline(self.plot)), 1)

    def test_no_file_no_points(self):
        self.assertEqual(campaign.afl_plot_timeline(os.path.join(self.d, "none")), [])

    def test_final_rate_is_a_mean_and_never_inf(self):
        self.assertEqual(campaign.afl_final_rate(stats(150000, run_time=60, per_sec="inf"), 61), 2500.0)
        self.assertEqual(campaign.afl_final_rate(stats(150000, run_time=0, per_sec="inf"), 50), 3000.0)
        self.assertEqual(campaign.afl_final_rate(stats(0, run_time=0), 0), 0.0)

    def test_poll_keeps_measured_figures(self):
        r = campaign.Run("decode", "afl", self.d)
        r.started = 0
        out = os.path.join(self.d, "out", "default")
        os.makedirs(out)
        with open(os.path.join(out, "fuzzer_stats"), "w") as f:
            f.write("".join("%-20s: %s\n" % kv for kv in stats(200000).items()))
        r.poll()
        self.assertIsNone(r.stats["execs_per_s"])  # no plot rows yet: n/a, not 84,815
        with open(os.path.join(out, "plot_data"), "w") as f:
            f.write(PLOT_HEADER + plot_row(61, 150000, 1400) + plot_row(66, 162500, 1410))
        r.poll()
        self.assertEqual(r.stats["execs_per_s"], 2500.0)
        self.assertEqual([p[0] for p in r.timeline], [61, 66])

    def test_libfuzzer_has_no_point_before_its_first_figure(self):
        r = campaign.Run("decode", "libfuzzer", self.d)
        r.started = 0
        with open(r.log_path, "w") as f:
            f.write("INFO: Seed: 1\nINFO: Loaded 1 modules\n")
        r.poll()
        self.assertEqual(r.timeline, [])
        with open(r.log_path, "a") as f:
            f.write("#2048\tpulse  cov: 1500 ft: 3000 corp: 900/40Kb exec/s: 1024 rss: 60Mb\n")
        r.poll()
        self.assertEqual(len(r.timeline), 1)
        self.assertEqual(r.timeline[0][1], 1500)


class Run:
    def __init__(self, target, engine, timeline):
        self.target, self.engine, self.timeline = target, engine, timeline


class Plot(unittest.TestCase):
    def test_one_panel_per_engine_with_its_own_axis(self):
        runs = [Run("decode", "libfuzzer", [(t, 3000 + t, 5, 1) for t in range(0, 61, 10)]),
                Run("decode", "afl", [(t, 500 + t // 10, 5, 1) for t in range(0, 61, 20)])]
        d = tempfile.mkdtemp()
        try:
            out = os.path.join(d, "p.svg")
            campaign.svg_plot(runs, out, "t")
            svg = open(out).read()
        finally:
            shutil.rmtree(d)
        self.assertIn(campaign.ENGINE_AXIS["libfuzzer"], svg)
        self.assertIn(campaign.ENGINE_AXIS["afl"], svg)
        self.assertEqual(svg.count("<polyline"), 2)
        ticks = [int(v.replace(",", "")) for v in re.findall(r'text-anchor="end">([\d,]+)<', svg)]
        self.assertTrue(any(2990 <= v <= 3100 for v in ticks) and any(490 <= v <= 510 for v in ticks), ticks)
        self.assertNotIn(">0<", svg)  # neither axis is squashed down to zero

    def test_nice_range_covers_the_figures(self):
        for lo, hi in ((3000, 3200), (5, 5), (0, 1), (123, 98765)):
            start, step, n = campaign.nice_range(lo, hi)
            self.assertLessEqual(start, lo)
            self.assertGreaterEqual(start + n * step, hi)
            self.assertLessEqual(n, 8)


class CoverageDenominator(unittest.TestCase):
    def test_sources_missing_from_the_report_are_named(self):
        report = "Filename Regions ...\n/x/codec/wire/decode.c 1 2 3\n/x/codec/table/dialects.c 1 2 3\nTOTAL 1 2 3\n"
        counted, missing = fuzzlib.library_files_in_report(report, ["codec/wire/decode.c", "codec/forms/json_parse.c", "codec/table/dialects.c"])
        self.assertEqual(counted, 2)
        self.assertEqual(missing, ["codec/forms/json_parse.c"])

    def test_every_target_binary_is_an_object(self):
        src = open(FUZZLIB).read()
        body = src[src.index("def coverage("):src.index("def library_files_in_report")]
        self.assertIn("for i, t in enumerate(every)", body)  # the objects are every target's, not the run's


class Workflow(unittest.TestCase):
    def test_the_stated_budget_is_the_real_one(self):
        text = open(WORKFLOW).read()
        batch = text[text.index("BatchFuzzing:"):text.index("Prune:")]
        seconds = int(re.search(r"fuzz-seconds:\s*(\d+)", batch)[1])
        m = re.search(r"(\d+) s over the (\d+) targets is\s*#?\s*(\d+) minutes per target", text)
        self.assertIsNotNone(m, "the workflow says how the budget divides")
        self.assertEqual(int(m[1]), seconds)
        self.assertEqual(int(m[2]), len(fuzzlib.TARGETS))
        self.assertEqual(int(m[3]), seconds // len(fuzzlib.TARGETS) // 60)
        self.assertNotIn("an hour per target", text)


class CorpusRewrite(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.corpus = os.path.join(self.d, "corpus", "decode")
        os.makedirs(self.corpus)
        for i in range(20):
            with open(os.path.join(self.corpus, "in%02d" % i), "wb") as f:
                f.write(bytes([i]))
        with open(os.path.join(self.corpus, "README.md"), "w") as f:
            f.write("keep me\n")
        self.new = os.path.join(self.d, "new")
        os.makedirs(self.new)
        for i in range(3):
            with open(os.path.join(self.new, "n%d" % i), "wb") as f:
                f.write(bytes([100 + i]))

    def tearDown(self):
        shutil.rmtree(self.d)

    def test_replace(self):
        fuzzlib.replace_dir_contents(self.corpus, self.new)
        self.assertEqual(sorted(os.listdir(self.corpus)), ["README.md", "n0", "n1", "n2"])
        self.assertEqual(sorted(os.listdir(os.path.dirname(self.corpus))), ["decode"])  # no scratch left

    def test_a_sub_folder_is_refused_and_nothing_changes(self):
        sub = os.path.join(self.corpus, "sub")
        os.makedirs(sub)
        open(os.path.join(sub, "x"), "w").close()
        before = sorted(os.listdir(self.corpus))
        self.assertEqual(fuzzlib.flat_corpus_problems(self.corpus), [sub])
        with self.assertRaises(SystemExit):
            fuzzlib.replace_dir_contents(self.corpus, self.new)
        self.assertEqual(sorted(os.listdir(self.corpus)), before)
        self.assertTrue(os.path.exists(os.path.join(sub, "x")))

    def test_a_failure_while_copying_leaves_the_corpus_whole(self):
        real = shutil.copyfile
        calls = []

        def failing(a, b, *k, **kw):
            calls.append(a)
            if len(calls) == 3:
                raise OSError("disk full")
            return real(a, b, *k, **kw)
        before = sorted(os.listdir(self.corpus))
        fuzzlib.shutil.copyfile = failing
        try:
            with self.assertRaises(OSError):
                fuzzlib.replace_dir_contents(self.corpus, self.new)
        finally:
            fuzzlib.shutil.copyfile = real
        self.assertEqual(sorted(os.listdir(self.corpus)), before)
        self.assertEqual(sorted(os.listdir(os.path.dirname(self.corpus))), ["decode"])


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed - len(result.skipped), failed))
    sys.exit(1 if failed else 0)
