"""The CLI's conventions (issue 25, section 6): a usage error names the unknown option or command with
the nearest valid one; exit codes 0 ok, 1 a check failed, 2 usage error, 3 input or runtime error
(README: Exit codes); --quiet silences progress and notes but not errors or warnings about the data."""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("KESSEL_CLI", "kessel")
SOURCE = os.environ.get("KESSEL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLES = {lang: os.path.join(SOURCE, "data", "samples", f"dialogues_{lang}.jsonl") for lang in ("zh", "en")}
HMM = os.path.join(SOURCE, "tests", "data", "hmm")


def kessel(*args, cwd=None):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=180, cwd=cwd)


def usage_error(*args):
    """Runs a command that must be a usage error (exit 2); returns its stderr."""
    p = kessel(*args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stdout == "" and "usage error: " in p.stderr, p.stderr
    return p.stderr


# --- suggestions -----------------------------------------------------------------------------------

def test_a_mistyped_flag_is_named_with_the_nearest_one_not_reported_as_a_missing_option():
    err = usage_error("summarize", "--inptu", "x")
    assert err.splitlines() == ["kessel summarize: usage error: unknown option --inptu (did you mean --input?)",
                                "run 'kessel summarize --help' for its options"]
    assert "is required" not in err
    # --flag=value: the name without the value
    assert "unknown option --inptu (did you mean --input?)" in usage_error("summarize", "--inptu=x")


@pytest.mark.parametrize("args, typed, meant", [
    (["eval", "--data", SAMPLES["en"], "--bootsrap", "0"], "--bootsrap", "--bootstrap"),  # a swap
    (["hmm", "fit", "--modle", "m.json", "--data", "x.txt"], "--modle", "--model"),  # a nested command's flags
    (["stress", "--lenghts", "8"], "--lenghts", "--lengths"),
    (["summarize", "--input", "x", "--max-sentence", "2"], "--max-sentence", "--max-sentences"),  # a deletion
    (["cluster", "data.csv", "--fuzzifer", "2"], "--fuzzifer", "--fuzzifier"),
    (["--quite", "summarize", "--input", "x"], "--quite", "--quiet"),  # the root's own flags
])
def test_the_suggestion_comes_from_the_command_being_typed(args, typed, meant):
    assert f"unknown option {typed} (did you mean {meant}?)" in usage_error(*args)


def test_a_flag_far_from_every_option_gets_no_guess():
    err = usage_error("summarize", "--input", "x", "--frobnicate")
    assert "unknown option --frobnicate\n" in err and "did you mean" not in err


def test_an_unknown_command_suggests_the_nearest_command():
    assert "kessel: usage error: unknown command 'summarise' (did you mean 'summarize'?)" in usage_error(
        "summarise", "--input", "x")
    assert "kessel hmm: usage error: unknown command 'fitt' (did you mean 'fit'?)" in usage_error(
        "hmm", "fitt", "--model", "m.json")
    # Nothing near: the commands are listed.
    err = usage_error("frobnicate")
    assert "unknown command 'frobnicate' (commands: " in err and "summarize" in err and "did you mean" not in err
    assert "a command is required (" in usage_error()
    assert "kessel hmm: usage error: a command is required (loglik, viterbi, posterior, fit, sample)" in usage_error("hmm")


def test_extra_positional_arguments_are_named_with_what_the_command_takes():
    err = usage_error("summarize", "--input", SAMPLES["zh"], "extra")
    assert "unexpected argument 'extra' (summarize takes no positional arguments)" in err
    assert "unexpected argument 'c' (rouge takes 2 positional arguments: pred ref)" in usage_error("rouge", "a", "b", "c")
    assert "(cluster takes 1 positional argument: data)" in usage_error("cluster", "a.csv", "b.csv")
    # A value given to a flag.
    assert "a flag takes no value" in usage_error("summarize", "--input", SAMPLES["zh"], "--pretty", "true")


# --- exit codes ------------------------------------------------------------------------------------

def test_help_documents_the_exit_codes_and_quiet():
    p = kessel("--help")
    assert p.returncode == 0
    footer = p.stdout[p.stdout.index("Exit codes:"):]
    for code in ("0  success", "1  a check failed", "2  usage error", "3  input or runtime error"):
        assert code in footer, footer
    assert "--quiet" in footer
    # Every command takes --quiet, and only the root's help carries the footer.
    for command in (["summarize"], ["train"], ["hmm", "fit"], ["bench", "attention"], ["lexicon", "expand"]):
        sub = kessel(*command, "--help")
        assert sub.returncode == 0 and "--quiet" in sub.stdout and "Exit codes:" not in sub.stdout, command


def test_exit_0_on_success(tmp_path):
    (tmp_path / "p.txt").write_text("the cat sat\n")
    (tmp_path / "r.txt").write_text("the cat sat down\n")
    p = kessel("rouge", tmp_path / "p.txt", tmp_path / "r.txt", "--lang", "en")
    assert p.returncode == 0 and p.stderr == "", p.stderr


def test_exit_1_when_a_check_fails():
    # A zero entropy tolerance fails stress's length test: the report says which, stderr says why 1.
    p = kessel("stress", "--lengths", "8,32", "--densities", "1", "--min-seconds", "0", "--entropy-tolerance", "0")
    assert p.returncode == 1, p.stderr
    assert "FAIL normalized entropy" in p.stdout
    assert p.stderr.splitlines()[-1] == "kessel: check failed: stress: some stress tests failed (the report says which)"


def test_exit_1_when_an_eval_target_is_missed():
    args = ["eval", "-q", "--data", SAMPLES["en"], "--bootstrap", "0", "--json"]
    met = kessel(*args, "--min-rougeL", "1", "--min-constraint", "1")
    assert met.returncode == 0 and met.stderr == "", met.stderr
    targets = json.loads(met.stdout)["targets"]
    assert [t["flag"] for t in targets] == ["--min-rougeL", "--min-constraint"] and all(t["ok"] for t in targets)
    # Checked on the unsupervised mode's row without --model: its ROUGE-L in the table.
    row = next(r for r in json.loads(met.stdout)["rows"] if r["system"] == "centrality softmax (unsupervised mode)")
    assert targets[0]["value"] == row["rougeL"]
    missed = kessel(*args, "--min-rougeL", "99.5")
    assert missed.returncode == 1, missed.stderr
    assert json.loads(missed.stdout)["targets"][0]["ok"] is False  # the results are printed first
    assert "kessel: check failed: eval: ROUGE-L " in missed.stderr and "is below --min-rougeL 99.50" in missed.stderr
    assert "--min-rougeL" in usage_error("eval", "--data", SAMPLES["en"], "--min-rougeL", "101")


@pytest.mark.parametrize("args, message", [
    (["summarize"], "kessel summarize: usage error: --input is required"),  # CLI11's 106 before
    (["summarize", "--input", SAMPLES["zh"], "--threads", "0"], "--threads: Value 0 not in range"),  # 105
    (["summarize", "--input", SAMPLES["zh"], "--threads", "abc"], "--threads"),  # conversion
    (["summarize", "--input", SAMPLES["zh"], "--format", "xml"], "--format"),  # not a member
    (["summarize", "--input", SAMPLES["zh"], "extra"], "unexpected argument 'extra'"),  # 109
    # Options that contradict each other, found by kessel rather than CLI11.
    (["summarize", "--input", SAMPLES["en"], "--voice", "verbatim"], "--voice: needs --model"),
    (["summarize", "--input", SAMPLES["en"], "--lexicon", "nrc"], "--lexicon: expected KIND=PATH"),
    (["summarize", "--input", SAMPLES["en"], "--lexicon", "bogus=x"], "--lexicon: unknown kind 'bogus'"),
    (["stress", "--lang", "en", "--data", SAMPLES["zh"]], "--lang chooses the bundled samples"),
    (["train", "--data", SAMPLES["en"], "--context", "bilstm", "--no-context", "--out", "m.safetensors"],
     "kessel train: usage error: --no-context and --context bilstm contradict each other"),
    (["train", "--data", SAMPLES["en"], "--cv-folds", "1"], "--cv-folds must be 0 (off) or at least 2, got 1"),
])
def test_exit_2_for_every_usage_error(args, message):
    assert message in usage_error(*args)


def test_a_usage_error_is_found_before_any_file_is_touched(tmp_path):
    # --curves without --out: refused before the writability check that would create curves.html.
    err = usage_error("train", "--data", SAMPLES["en"], "--cv-folds", "2", "--curves", tmp_path / "curves.html")
    assert "--curves needs --out" in err and not (tmp_path / "curves.html").exists()
    # cluster's -k and -m are checked before the CSV is read: a missing file is not what is reported.
    assert "-k must be >= 1, got 0" in usage_error("cluster", tmp_path / "none.csv", "-k", "0")
    assert "-m must be > 1, got 1" in usage_error("cluster", tmp_path / "none.csv", "-k", "1", "-m", "1")
    assert "--fix got 'everything'" in usage_error("hmm", "fit", "--model", tmp_path / "none.json", "--data",
                                                  tmp_path / "none.txt", "--fix", "everything")


def input_error(*args, cwd=None):
    p = kessel(*args, cwd=cwd)
    assert p.returncode == 3, (p.returncode, p.stderr)
    assert p.stderr.startswith("kessel: error: ") and "internal error" not in p.stderr, p.stderr
    return p.stderr


def test_exit_3_for_input_and_runtime_errors(tmp_path):
    assert "cannot open" in input_error("summarize", "--input", tmp_path / "none.jsonl")  # IoError
    bad = tmp_path / "bad.jsonl"
    with open(SAMPLES["zh"]) as f:
        first = f.readline()
    bad.write_text(first + '{"id": "x", "turns": []}\n')
    assert f"{bad}:2: turns: empty dialogue" in input_error("summarize", "--input", bad)  # ParseError, file:line
    assert "cannot write into the folder" in input_error("summarize", "--input", SAMPLES["zh"], "--output",
                                        tmp_path / "no" / "dir" / "out.jsonl")  # a file that cannot be written
    (tmp_path / "m.json").write_text('{"type": "categorical", "start": [1], "transitions": [[1]], "emissions": [[1]]}')
    (tmp_path / "x.txt").write_text("0 7\n")
    assert "x.txt:1" in input_error("hmm", "loglik", "--model", "m.json", "--data", "x.txt", cwd=tmp_path)
    # Data the command refuses: k larger than the rows depends on the file, so it is not a usage error.
    (tmp_path / "two.csv").write_text("1,2\n3,4\n")
    assert "-k 3 exceeds the 2 data rows" in input_error("cluster", tmp_path / "two.csv", "-k", "3")


# --- --quiet ---------------------------------------------------------------------------------------

def eval_rows(stdout):
    return [(r["system"], r["rouge1"], r["rouge2"], r["rougeL"]) for r in json.loads(stdout)["rows"]]


def test_quiet_silences_eval_progress_and_keeps_the_results():
    loud = kessel("eval", "--data", SAMPLES["en"], "--bootstrap", "0", "--json")
    assert loud.returncode == 0, loud.stderr
    assert any(line.startswith("eval ") and "100%" in line for line in loud.stderr.splitlines()), loud.stderr
    for where in (["-q", "eval"], ["eval", "--quiet"]):  # before or after the command
        args = where + ["--data", SAMPLES["en"], "--bootstrap", "0", "--json"]
        quiet = kessel(*args)
        assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
        assert eval_rows(quiet.stdout) == eval_rows(loud.stdout)


def test_quiet_silences_training_and_trains_the_same_model(tmp_path):
    common = ["train", "--data", SAMPLES["en"], "--epochs", "1", "--members", "1", "--threads", "1"]
    loud = kessel(*common, "--out", tmp_path / "loud.safetensors")
    assert loud.returncode == 0, loud.stderr
    assert "epoch 1 | loss" in loud.stderr and "model load" in loud.stderr
    quiet = kessel(*common, "--out", tmp_path / "quiet.safetensors", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    assert quiet.stdout.startswith("model ")  # the result line is on stdout either way
    assert (tmp_path / "loud.safetensors").read_bytes() == (tmp_path / "quiet.safetensors").read_bytes()


def test_quiet_silences_hmm_fit_iterations():
    args = ["hmm", "fit", "--model", os.path.join(HMM, "casino.json"), "--data", os.path.join(HMM, "casino_rolls.txt"),
            "--max-iter", "3"]
    loud = kessel(*args)
    assert loud.returncode == 0 and "iter 1 | loglik" in loud.stderr, loud.stderr
    quiet = kessel(*args, "-q")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == loud.stdout, quiet.stderr


def test_quiet_keeps_warnings_about_the_data(tmp_path):
    # A bad record skipped with --on-error skip is a warning about the data: it stays; the progress goes.
    data = tmp_path / "one_bad.jsonl"
    with open(SAMPLES["zh"]) as f:
        lines = f.readlines()
    data.write_text(lines[0] + "{not json\n" + "".join(lines[1:]))
    args = ["summarize", "--input", data, "--on-error", "skip", "--output", tmp_path / "out.jsonl"]
    loud = kessel(*args)
    assert loud.returncode == 0 and any(line.startswith("summarize ") for line in loud.stderr.splitlines())
    quiet = kessel(*args, "--quiet")
    assert quiet.returncode == 0, quiet.stderr
    err = quiet.stderr.splitlines()
    assert len(err) == 2 and err[0].startswith(f"skipped {data}:2") and err[1].endswith("1 records skipped"), err
    # Errors stay too.
    assert input_error("summarize", "-q", "--input", tmp_path / "none.jsonl").startswith("kessel: error: ")


# --- standard output --------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["eval", "--data", SAMPLES["en"], "--bootstrap", "10"],
    ["analyze", "--data", SAMPLES["en"]],
    ["cluster", "-k", "2", "--columns", "0,1", os.path.join(SOURCE, "tests", "data", "iris.csv")],
    ["hmm", "viterbi", "--model", os.path.join(HMM, "casino.json"), "--data", os.path.join(HMM, "casino_rolls.txt")],
    ["summarize", "--input", SAMPLES["en"]],
    ["rouge", os.path.join(SOURCE, "tests", "data", "hmm", "casino_rolls.txt"), os.path.join(SOURCE, "tests", "data", "hmm", "casino_rolls.txt"), "--lang", "en"],
], ids=lambda a: a[0] if a[0] != "hmm" else "hmm viterbi")
def test_a_full_disk_on_standard_output_is_an_error_not_a_silent_success(args):
    # Issue 23: `> /dev/full` exited 0 for every command but summarize, with the results lost.
    with open("/dev/full", "w") as full:
        p = subprocess.run([CLI, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=180)
    assert p.returncode == 3, p.stderr
    assert "kessel: error: standard output: write failed" in p.stderr
