#!/usr/bin/env python3
"""Mutants by operator on the lines that changed: the generator behind
`scripts/mutate.sh --diff BASE`.

The hand-picked rows of scripts/mutate.sh cover what their authors thought
of. This plants every small bug an operator can make on every changed line
of the Swift and C sources under Sources/ (git diff -U0 BASE), so a line
nobody listed is tested too (Petrovic and Ivankovic, "State of Mutation
Testing at Google", ICSE-SEIP 2018).

Operators (the name each output line carries):
  compare-flip     == <-> !=
  compare-bound    < <-> <=, > <-> >=
  negate           `if X {` -> `if !(X) {`, `guard X else` -> `guard !(X) else`,
                   C `if (X)` -> `if (!(X))`
  drop-guard       `guard X else {` -> `if false {`; an `if` whose body returns
                   or throws never taken (C: `if (0 && (X))`)
  constant         an integer literal +1 and -1
  and-or           && -> ||
  return-neutral   a function returns at once with its type's neutral value
                   (false/true, 0, "", [], nil; C: 0, NULL, or nothing)
  seccomp-allow    a FAIL(...) or RULE(...) row of the seccomp table -> ALLOW
  drop-flag        one flag dropped from a bit-or of constants (A | B -> A)

Commands (run from the repository's root):
  mutants.py list --diff BASE [--sample N] [--seed S] [--out DIR]
      One tab-separated line per mutant: id, file, line, operator, filter,
      equivalence reason ("-" unless the ledger names it), description.
      With --out, DIR/ID holds each mutated file, and DIR/ID.sha256 the
      SHA-256 of the file it was made from.
  mutants.py map
      Which suites run for a mutant of each folder (TEST_MAP below).
  mutants.py check
      Every row of Tests/mutants-equivalent.txt still names a mutant the
      current tree generates, and gives a reason; exits 1 otherwise.

Ids are a hash of the file, the operator and the line before and after, so
they survive lines moving; the ledger (Tests/mutants-equivalent.txt) keys on
them.
"""

import argparse
import hashlib
import os
import random
import re
import subprocess
import sys

LEDGER = "Tests/mutants-equivalent.txt"

# Not mutated: test support and fuzz harnesses (not shipped behaviour), and
# syscall_names.c, a name table scripts/syscall-names.py generates.
EXCLUDED = (
    "Sources/PatchbayTesting/",
    "Sources/FuzzTargets/",
    "Sources/CFuzzerDriver/",
    "Sources/PatchbayFuzz/",
    "Sources/CWorkerSandbox/syscall_names.c",
)

# Which tests run for a mutant: the longest prefix of its file wins, and the
# filters of scripts/mutate.sh's rows for the same file are added. A whole
# test target per module would be simplest, but PluginHostTests takes most of
# the suite's ten minutes; these are the suites that exercise each folder.
# `scripts/mutate.sh --diff BASE --suite` runs the whole suite instead.
TEST_MAP = [
    ("Sources/Patchbay/", "PatchbayTests"),
    ("Sources/CPatchbay/", "PatchbayTests"),
    ("Sources/PriceKit/", "PriceKitTests"),
    ("Sources/PluginSDK/", "PluginSDKTests"),
    ("Sources/PluginABI/", "PluginSDKTests|PluginLoaderTests|BrokenPluginTests|DescriptorSizeEndToEndTests|DescriptorMetadataTests"),
    ("Sources/WorkerProtocol/", "WorkerProtocolTests|WorkerConnectionStateMachineTests|FrameStreamTests|SandboxReportTests|IsolationEndToEndTests"),
    ("Sources/PluginWorker/", "IsolationEndToEndTests|SandboxEndToEndTests|ContainmentEndToEndTests|HostRequestCapsEndToEndTests"),
    ("Sources/CWorkerSandbox/", "SandboxEndToEndTests|SandboxRootEndToEndTests|SandboxReportTests|SharedNamespacesTests|IsolationEndToEndTests"),
    ("Sources/CFileBeneath/", "FileNetworkingTests|URLPolicyEndToEndTests"),
    ("Sources/HostHTTP/", "HTTPLibraryTests|HTTPCompletionTests|NetworkEndToEndTests|HostHTTPAnswerTests"),
    ("Sources/HostHTTPABI/", "HTTPLibraryTests|HTTPCompletionTests|NetworkingViaHostTests"),
    ("Sources/HostShared/", "DurationUnitsTests|HostHTTPAnswerTests|HTTPCompletionTests"),
    ("Sources/HostCommand/", "HelpSnapshotTests|TimeLimitTests|TerminalOutputEndToEndTests|HostEndToEndTests|SourcesEndToEndTests|InspectTests|NewPluginTests|SettingNamesTests|ProgressLineTests|AdviceTests|FailureWordingTests"),
    ("Sources/PluginBoundary/Calls/", "PendingFetchesTests|CallbackMisbehaviourTests|ContainmentEndToEndTests"),
    ("Sources/PluginBoundary/Image/", "PluginLoaderTests|BrokenPluginTests|DescriptorSizeEndToEndTests|DescriptorMetadataTests"),
    ("Sources/PluginBoundary/Rules/", "PluginOutputRulesTests|ContainmentEndToEndTests"),
    ("Sources/PluginBoundary/Services/", "HostServicesPolicyTests|PluginLoaderTests|ContainmentEndToEndTests"),
    ("Sources/PluginBoundary/", "PluginLoaderTests|BrokenPluginTests"),
    ("Sources/PluginHost/Trust/", "TrustRulesTests|TrustEndToEndTests|VouchingEndToEndTests|LockFileEndToEndTests|LockFileEdgeCaseTests|PluginLockTests|PluginOutputRulesTests"),
    ("Sources/PluginHost/ScanCache/", "RegistryCacheTests|RegistryCacheEndToEndTests|CachedListingChecksEndToEndTests"),
    ("Sources/PluginHost/Isolation/", "SharedNamespacesTests|IsolationEndToEndTests|WorkerConnectionStateMachineTests|SandboxEndToEndTests|FrameStreamTests|SandboxReportTests|HostRequestCapsEndToEndTests"),
    ("Sources/PluginHost/Networking/", "URLPolicyTests|URLPolicyEndToEndTests|FileNetworkingTests|NetworkEndToEndTests|NetworkSettingsTests|APIBaseEndToEndTests"),
    ("Sources/PluginHost/Fetching/", "ConsensusTests|SourcesEndToEndTests|CallbackMisbehaviourTests|HostEndToEndTests|DurationUnitsTests"),
    ("Sources/PluginHost/Loading/", "PluginLoaderTests|BrokenPluginTests|HostServicesPolicyTests|PluginDiscoveryTests|HostEndToEndTests|RegistryCacheEndToEndTests|HostRequestCapsEndToEndTests"),
    ("Sources/PluginHost/Registry/", "FetcherRankReadingTests|PluginDiscoveryTests|HostEndToEndTests|SymbolProvidersTests"),
    ("Sources/PluginHost/Providers/", "SymbolProvidersTests|HostEndToEndTests"),
    ("Sources/PluginHost/Settings/", "HostWiringTests|NetworkSettingsTests|SettingNamesTests"),
    ("Sources/PluginHost/Installation/", "InstalledLayoutTests"),
    ("Sources/PluginHost/Inspection/", "InspectTests|DescriptorMetadataTests"),
    ("Sources/PluginHost/Allowance/", "RequestCapsTests|ContainmentEndToEndTests|HostServicesPolicyTests"),
    ("Sources/PluginHost/Files/", "FilePathsTests"),
    ("Sources/PluginHost/Support/", "SettingNamesTests|HostEndToEndTests"),
    ("Sources/PluginHost/", "VouchingEndToEndTests|HostEndToEndTests|ContainmentEndToEndTests|IsolationEndToEndTests|BodyCapEndToEndTests"),
]


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def row_filters():
    """file -> filters of scripts/mutate.sh's hand-picked rows for it."""
    found = {}
    try:
        listed = subprocess.run(["bash", "scripts/mutate.sh", "--list"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return found
    lines = listed.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("    filter: ") and i >= 1:
            path = lines[i - 1].strip()
            found.setdefault(path, []).append(line[len("    filter: "):])
    return found


def alternatives(pattern):
    """The top-level alternatives of a regular expression: a|(b|c) -> a, (b|c)."""
    parts, depth, current = [], 0, ""
    for char in pattern:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "|" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts + [current]


def test_filter(path, rows):
    best = ""
    for prefix, tests in TEST_MAP:
        if path.startswith(prefix) and len(prefix) > len(best):
            best, chosen = prefix, tests
    parts = alternatives(chosen) if best else []
    for extra in rows.get(path, []):
        for part in alternatives(extra):
            # A suite already listed runs a test of it too.
            if not any(part == p or part.startswith(p + "/") for p in parts):
                parts.append(part)
    if not parts:
        parts = [path.split("/")[1] + "Tests"]
    return "|".join(parts)


def changed_lines(base):
    """{file: set of line numbers} added or changed since base, in the work tree."""
    out = git("diff", "-U0", "--no-color", "--no-renames", base, "--", "Sources/")
    changed, current = {}, None
    for line in out.splitlines():
        if line.startswith("+++ "):
            name = line[4:]
            current = name[2:] if name.startswith("b/") else None
            if current and (not re.search(r"\.(swift|c|h)$", current) or current.startswith(EXCLUDED)):
                current = None
        elif line.startswith("@@") and current:
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            start, count = int(m.group(1)), int(m.group(2) or "1")
            changed.setdefault(current, set()).update(range(start, start + count))
    return changed


def code_mask(text, is_c):
    """Per character of text: True where it is code (not a comment or string)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif not is_c and text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
        elif text[i] == '"' or (is_c and text[i] == "'"):
            quote, j = text[i], i + 1
            while j < n and text[j] != quote and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        for k in range(i, j):
            mask[k] = False
        i = j
    return mask


def balanced_end(text, start, opening="(", closing=")"):
    """Index just past the bracket that closes the one at start, or -1."""
    depth = 0
    for k in range(start, len(text)):
        if text[k] == opening:
            depth += 1
        elif text[k] == closing:
            depth -= 1
            if depth == 0:
                return k + 1
    return -1


# Flags whose value is 0: dropping one from a bit-or changes nothing.
ZERO_FLAGS = {"O_RDONLY", "PROT_NONE", "F_OK", "SEEK_SET"}

SWIFT_NEUTRAL = [
    (r"Bool\??", ["false", "true"]),
    (r"(U?Int(8|16|32|64)?|Double|Float|Duration|size_t|Int32)", ["0"]),
    (r"String", ['""']),
    (r"\[.*\]", ["[]"]),
    (r".*\?", ["nil"]),
]


def swift_function_mutants(line):
    """`func f(...) -> T {` at the end of a line: return at once."""
    m = re.match(r"^(\s*)(?:(?:@\w+(?:\([^)]*\))?|public|package|internal|private|fileprivate|static|final|override|mutating|nonisolated|class|consuming|borrowing)\s+)*func\s.*\)\s*(?:async\s+)?(?:throws(?:\([^)]*\))?\s+)?(?:->\s*(.+?))?\s*(?:where [^{]*)?\{\s*$", line)
    if not m or line.count("{") != 1:
        return []
    result = (m.group(2) or "").strip()
    if not result or result in ("Void", "()"):
        return [line.rstrip("\n") + " return;\n"]
    for pattern, values in SWIFT_NEUTRAL:
        if re.fullmatch(pattern, result):
            return [line.rstrip("\n") + " return " + v + ";\n" for v in values]
    return []


def c_function_mutants(lines, index):
    """A C function whose body opens on this line (`{` alone, or at the end of
    its signature): return at once."""
    line = lines[index]
    if line.strip() == "{" and index > 0 and not line.startswith((" ", "\t")):
        signature_at = index - 1
        # The signature may span lines: walk back to its first line.
        while signature_at > 0 and not re.match(r"^[A-Za-z_]", lines[signature_at]):
            signature_at -= 1
        signature = lines[signature_at]
    elif re.match(r"^[A-Za-z_].*\)\s*\{\s*$", line) and "=" not in line.split("(")[0]:
        signature = line
    else:
        return []
    head = signature.split("(")[0]
    if not re.match(r"^[A-Za-z_][\w\s\*]*\b\w+\s*$", head) or head.split()[0] in ("if", "for", "while", "switch", "struct", "typedef", "enum"):
        return []
    words = head.replace("*", " * ").split()
    kind = " ".join(w for w in words[:-1] if w not in ("static", "inline", "extern", "const"))
    if kind == "void":
        value = "return;"
    elif "*" in kind:
        value = "return NULL;"
    elif kind in ("bool", "_Bool"):
        value = ["return false;", "return true;"]
    else:
        value = "return 0;"
    values = value if isinstance(value, list) else [value]
    return [line.rstrip("\n") + " " + v + "\n" for v in values]


def line_mutants(path, text, lines, number, starts, mask):
    """(operator, new text of the whole file, description) for line number (1-based)."""
    is_c = path.endswith((".c", ".h"))
    index = number - 1
    line = lines[index]
    offset = starts[index]
    stripped = line.strip()
    found = []

    def code_at(i):
        return 0 <= offset + i < len(mask) and mask[offset + i]

    def replaced(new_line, description, operator):
        if new_line != line:
            found.append((operator, text[:offset] + new_line + text[offset + len(line):], description))

    if not stripped or not any(code_at(i) for i in range(len(line)) if not line[i].isspace()):
        return found
    if stripped.startswith(("#", "import ", "@Test", "///", "*")):
        return found

    # Comparisons and boolean operators, surrounded by spaces as the style writes them.
    for m in re.finditer(r"(?<= )(==|!=|<=|>=|<|>|&&)(?= )", line):
        if not code_at(m.start()):
            continue
        op = m.group(1)
        swap = {"==": ("!=", "compare-flip"), "!=": ("==", "compare-flip"), "<": ("<=", "compare-bound"),
                "<=": ("<", "compare-bound"), ">": (">=", "compare-bound"), ">=": (">", "compare-bound"),
                "&&": ("||", "and-or")}[op]
        replaced(line[:m.start()] + swap[0] + line[m.end():], f"`{op}` -> `{swap[0]}`", swap[1])

    # Integer constants, outside identifiers and version strings.
    for m in re.finditer(r"(?<![\w.$])(0x[0-9A-Fa-f_]+|0o[0-7_]+|\d[\d_]*)(?![\w.])", line):
        if not code_at(m.start()):
            continue
        literal = m.group(1)
        try:
            value = int(literal.replace("_", ""), 0) if not literal.startswith("0o") else int(literal[2:].replace("_", ""), 8)
        except ValueError:
            continue
        if is_c and literal.startswith("0") and len(literal) > 1 and not literal.startswith("0x"):
            value = int(literal, 8)
        if line[:m.start()].rstrip().endswith(("[", "case")) and value == 0:
            continue
        for delta in (1, -1):
            if value + delta < 0:
                continue
            new = hex(value + delta) if literal.startswith("0x") else (("0o%o" if literal.startswith("0o") else "%d") % (value + delta))
            if is_c and literal.startswith("0") and len(literal) > 1 and not literal.startswith("0x"):
                new = "0%o" % (value + delta)
            replaced(line[:m.start()] + new + line[m.end():], f"{literal} -> {new}", "constant")

    if not is_c:
        # negate / drop-guard: a condition with no binding and no list of clauses.
        m = re.match(r"^(\s*)(guard|if|\} else if)\s+(.*?)\s+(else\s*\{|\{)(.*)$", line.rstrip("\n"))
        if m and code_at(len(m.group(1))):
            condition = m.group(3)
            simple = not re.search(r"\b(let|var|case|await|try)\b|#available", condition) and "," not in condition and "{" not in condition
            if simple and (m.group(2) == "guard") == m.group(4).startswith("else"):
                replaced(f"{m.group(1)}{m.group(2)} !({condition}) {m.group(4)}{m.group(5)}\n", f"{m.group(2)} {condition} -> {m.group(2)} !({condition})", "negate")
            body = m.group(5) + (lines[index + 1] if index + 1 < len(lines) else "")
            if m.group(2) == "guard" and "{" not in condition and not re.search(r"\b(case)\b|#available", condition):
                if not re.search(r"\b(let|var)\b", condition):
                    replaced(f"{m.group(1)}if false {{{m.group(5)}\n", "guard dropped", "drop-guard")
            elif m.group(2) == "if" and simple and re.match(r"\s*(return|throw)\b", body):
                replaced(f"{m.group(1)}if false, {condition} {m.group(4)}{m.group(5)}\n", "an if that returns or throws, never taken", "drop-guard")
        for new_line in swift_function_mutants(line):
            replaced(new_line, "returns at once: " + new_line.strip().split("{")[-1].strip(), "return-neutral")
    else:
        m = re.match(r"^(\s*(?:\} else )?if\s*)\(", line)
        if m and code_at(len(m.group(1))):
            end = balanced_end(line, len(m.group(1)))
            if end > 0:
                condition = line[len(m.group(1)) + 1:end - 1]
                replaced(line[:len(m.group(1))] + "(!(" + condition + "))" + line[end:], f"if ({condition}) negated", "negate")
                rest = line[end:] + (lines[index + 1] if index + 1 < len(lines) else "")
                if re.match(r"\s*\{?\s*(return|goto|_exit|abort)\b", rest):
                    replaced(line[:len(m.group(1))] + "(0 && (" + condition + "))" + line[end:], "an if that returns, never taken", "drop-guard")
        for new_line in c_function_mutants(lines, index):
            replaced(new_line, "returns at once: " + new_line.strip().split("{")[-1].strip(), "return-neutral")

    # One flag dropped from a bit-or of constants (O_RDONLY | O_CLOEXEC).
    flag = r"[A-Z][A-Z0-9_]*|\.[a-z]\w*"
    for m in re.finditer(rf"(?<![\w.])((?:{flag})(?:\s*\|\s*(?:{flag}))+)(?![\w(])", line):
        if not code_at(m.start()):
            continue
        parts = [p.strip() for p in m.group(1).split("|")]
        if "||" in m.group(1):
            continue
        for k in range(len(parts)):
            if parts[k] in ZERO_FLAGS:
                continue
            rest = " | ".join(parts[:k] + parts[k + 1:])
            replaced(line[:m.start()] + rest + line[m.end():], f"{parts[k]} dropped from {m.group(1)}", "drop-flag")

    # The seccomp table: a FAIL or RULE row allows its call outright.
    if path.endswith("seccomp_filter.c"):
        m = re.match(r"^(\s*)(FAIL|RULE)\((\w+),", line)
        if m and code_at(len(m.group(1))):
            end = balanced_end(text, offset + len(m.group(1)) + len(m.group(2)))
            if end > 0:
                found.append(("seccomp-allow", text[:offset] + f'{m.group(1)}ALLOW({m.group(3)}, "mutant")' + text[end:],
                              f"{m.group(2)}({m.group(3)}, ...) -> ALLOW({m.group(3)})"))
    return found


def mutants_of(path, numbers):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    lines = text.splitlines(keepends=True)
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line)
    mask = code_mask(text, path.endswith((".c", ".h")))
    result = []
    for number in sorted(numbers):
        if number > len(lines):
            continue
        for operator, mutated, description in line_mutants(path, text, lines, number, starts, mask):
            changed = mutated[starts[number - 1]:len(mutated) - (len(text) - starts[number - 1] - len(lines[number - 1]))]
            key = "\0".join([path, operator, lines[number - 1].strip(), changed.strip()])
            ident = "m-" + hashlib.sha256(key.encode()).hexdigest()[:10]
            result.append((ident, path, number, operator, description, mutated))
    return result


def read_ledger():
    rows = {}
    if not os.path.exists(LEDGER):
        return rows
    with open(LEDGER, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            rows[fields[0]] = (number, fields)
    return rows


def command_list(args):
    rows = row_filters()
    ledger = read_ledger()
    changed = changed_lines(args.diff)
    found = []
    for path in sorted(changed):
        if os.path.exists(path):
            found.extend(mutants_of(path, changed[path]))
    # The same mutation on two identical lines of a file has one id: keep the first.
    seen, unique = set(), []
    for mutant in found:
        if mutant[0] not in seen:
            seen.add(mutant[0])
            unique.append(mutant)
    total = len(unique)
    if args.sample and args.sample < total:
        chooser = random.Random(args.seed)
        # In the order drawn, not by file: a run cut short by --minutes is still a fair sample.
        unique = chooser.sample(unique, args.sample)
    print(f"# {total} mutants on {sum(len(v) for v in changed.values())} changed lines of {len(changed)} files since {args.diff}"
          + (f"; a sample of {len(unique)} (seed {args.seed})" if len(unique) < total else ""), file=sys.stderr)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for ident, path, number, operator, description, mutated in unique:
        reason = ledger[ident][1][-1] if ident in ledger else ""
        if args.out:
            with open(os.path.join(args.out, ident), "w", encoding="utf-8") as handle:
                handle.write(mutated)
            with open(path, "rb") as handle:
                digest = hashlib.sha256(handle.read()).hexdigest()
            with open(os.path.join(args.out, ident + ".sha256"), "w") as handle:
                handle.write(digest + "\n")
        clean = lambda s: s.replace("\t", " ").replace("\n", " ")
        print("\t".join([ident, path, str(number), operator, test_filter(path, rows), clean(reason) or "-", clean(description)]))


def command_check(_args):
    ledger = read_ledger()
    bad = 0
    by_file = {}
    for ident, (number, fields) in ledger.items():
        if len(fields) < 4 or not fields[-1].strip():
            print(f"STALE     {LEDGER}:{number}: a row is: id, file:line, operator, reason (tab-separated)")
            bad += 1
            continue
        by_file.setdefault(fields[1].rsplit(":", 1)[0], []).append((ident, number))
    for path, entries in by_file.items():
        present = set()
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                count = len(handle.read().splitlines())
            present = {m[0] for m in mutants_of(path, range(1, count + 1))}
        for ident, number in entries:
            if ident not in present:
                print(f"STALE     {ident} ({LEDGER}:{number}): the current {path} no longer has this mutant; delete or update the row")
                bad += 1
    print(f"{len(ledger)} equivalent mutants recorded, {bad} stale")
    return 1 if bad else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list")
    listing.add_argument("--diff", required=True, metavar="BASE")
    listing.add_argument("--sample", type=int, default=0)
    listing.add_argument("--seed", default="0")
    listing.add_argument("--out")
    commands.add_parser("check")
    commands.add_parser("map")
    args = parser.parse_args()
    if args.command == "map":
        for prefix, tests in TEST_MAP:
            print(f"{prefix:34} {tests}")
        print(f"{'(any other folder X)':34} XTests, the module's test target")
        print("and, for a file scripts/mutate.sh has rows for, the filters of those rows.")
        return 0
    if args.command == "list":
        try:
            git("rev-parse", "--verify", "--quiet", args.diff + "^{commit}")
        except subprocess.CalledProcessError:
            print(f"mutants: '{args.diff}' is no commit here; give a commit, e.g. --diff HEAD~1", file=sys.stderr)
            return 64
        command_list(args)
        return 0
    return command_check(args)


if __name__ == "__main__":
    sys.exit(main())
