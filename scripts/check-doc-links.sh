#!/usr/bin/env bash
# Every relative link in the project's Markdown resolves: README.md,
# BENCHMARKS.md, docs/*.md and Examples/README.md (every tracked .md outside
# the DocC catalogs, whose links `docc --warnings-as-errors` checks). A link
# to a file must name one that exists; a `#fragment`, in the same file or in
# another Markdown file, must name one of its headings as GitHub turns them
# into anchors (lower case, punctuation dropped, spaces to hyphens, `-1`,
# `-2`, ... for repeats). Links inside code blocks and code spans are text,
# not links; http(s) and mailto links are not followed.
#
# Seconds, no build. scripts/build-docs.sh runs it after the DocC build.
#
# Usage: scripts/check-doc-links.sh         one FAIL line per broken link, then a PASS or FAIL summary
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

# The tracked pages; outside a git checkout (an exported tree), every page
# but the build folders'.
pages() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z -- '*.md' ':!:Sources/*.docc/*'
    else
        find . \( -name .build -o -name '.build-*' -o -name '*.docc' -o -name .git \) -prune -o -name '*.md' -print0 | sed -z 's|^\./||'
    fi
}

pages | python3 -c '
import os, re, sys, unicodedata

def anchors(path):
    """The anchors GitHub makes of a Markdown file'"'"'s headings."""
    seen, result, fenced = {}, set(), False
    for line in open(path, encoding="utf-8"):
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            continue
        match = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1))
        slug = "".join(c for c in text.lower() if c in " -_" or unicodedata.category(c)[0] in "LN")
        slug = slug.replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f"{slug}-{count}")
    return result

def links(path):
    """(line number, target) of every inline link outside code."""
    fenced = False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            continue
        if fenced:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        for match in re.finditer(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
            yield number, match.group(1)

files = [name for name in sys.stdin.read().split("\0") if name]
cache, broken, checked = {}, 0, 0
for source in files:
    for number, target in links(source):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue
        checked += 1
        path, _, fragment = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(source), path)) if path else source
        if not os.path.exists(resolved):
            print(f"FAIL doc-links {source}:{number}: {target}: no file {resolved}")
            broken += 1
            continue
        if fragment and resolved.endswith(".md"):
            if resolved not in cache:
                cache[resolved] = anchors(resolved)
            if fragment not in cache[resolved]:
                print(f"FAIL doc-links {source}:{number}: {target}: {resolved} has no heading whose anchor is #{fragment}")
                broken += 1
if broken:
    print(f"FAIL doc-links: {broken} of {checked} relative links in {len(files)} Markdown files do not resolve")
    sys.exit(1)
print(f"PASS doc-links: all {checked} relative links in {len(files)} Markdown files resolve")
'
