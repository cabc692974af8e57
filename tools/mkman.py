#!/usr/bin/env python3
"""Writes platter's man pages at build time from what already says it all.

  platter(1)           SYNOPSIS and OPTIONS from `platter --help`, the commands
                       from its usage lines, WORKLOADS from `platter list`, the
                       rest from docs/api.md's "The command line" section (exit
                       status, environment, files) and README.md's "Using it"
  platter-NAME(1)      one per shipped workload: its p.args spec (`platter
                       complete --json NAME`), the opening comment of
                       workloads/NAME.lua (what it reproduces, what differs from
                       the original), and docs/workloads.md's "## NAME" if any
  platter-lua(3)       docs/api.md whole, the Lua API

Nothing is written twice: a changed option, flag or paragraph changes the page
at the next build. The Markdown it reads is docs/'s own subset: headings,
paragraphs, lists, fenced code and pipe tables.
Usage: mkman.py PLATTER SOURCE_DIR OUT_DIR
"""
import datetime
import json
import os
import re
import subprocess
import sys

# the date on the pages: SOURCE_DATE_EPOCH's (Debian sets it from the changelog),
# so that a rebuild makes the same bytes; else today's
DATE = datetime.datetime.fromtimestamp(int(os.environ.get("SOURCE_DATE_EPOCH") or
                                           datetime.datetime.now().timestamp()),
                                       datetime.timezone.utc).strftime("%Y-%m-%d")


# --- roff ------------------------------------------------------------------

def esc(text):
    """Plain text for roff: backslashes, minus signs, quotes; other than ASCII
    as \\[uXXXX], so that the page needs no input encoding."""
    text = text.replace("\\", "\\e").replace("-", "\\-").replace("'", "\\(aq")
    return "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)


def line_start(text):
    """A roff line may not start with . or ' (a request)."""
    return "\\&" + text if text[:1] in (".", "'") else text


def inline(text):
    """Markdown inline markup to roff: `code`, **bold**, *em*, [text](link)."""
    text = re.sub(r"<!--.*?-->", "", text)
    text = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", lambda m: link(m.group(1), m.group(2)), text)
    codes = []  # `code` spans stand aside while the rest is marked up

    def keep(m):
        codes.append("\\fB" + esc(m.group(2).strip()) + "\\fP")  # \fP: back to bold in **`x`**
        return "\x02%d\x03" % (len(codes) - 1)

    text = inline_plain(re.sub(r"(`+)(.+?)\1", keep, text, flags=re.S))
    return re.sub("\x02(\\d+)\x03", lambda m: codes[int(m.group(1))], text)


def inline_plain(text):
    text = esc(text).replace("\\e|", "|").replace("\\e*", "\x01").replace("\\e_", "_")
    text = re.sub(r"\*\*(.+?)\*\*", r"\\fB\1\\fR", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\\fI\1\\fR", text)
    return text.replace("\x01", "*")


def link(text, target):
    if target.startswith(("http://", "https://")):
        return f"{text} <{target}>"
    return text  # a link within docs/: the words carry it


def roff_lines(text):
    """Inline markup over a whole paragraph (a `code` span may cross lines),
    then one roff line per sentence-ish piece, none starting with a request."""
    return [line_start(l) for l in inline(text).split("\n")]


def cells(row):
    """A pipe-table row's cells; a | inside `code` or escaped as \\| stays."""
    row = row.strip().strip("|")
    out, cur, code = [], "", False
    i = 0
    while i < len(row):
        c = row[i]
        if c == "\\" and row[i + 1:i + 2] == "|":
            cur += "|"
            i += 2
            continue
        if c == "`":
            code = not code
        if c == "|" and not code:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    out.append(cur.strip())
    return out


def markdown(text, top=2):
    """Markdown to man(7) requests. Headings of level `top` become .SH, deeper
    ones .SS; a heading above `top` is dropped (the page has its own title)."""
    out = []
    lines = text.splitlines()
    i = 0
    para = []

    def flush():
        if para:
            out.append(".PP")
            out.extend(roff_lines(" ".join(l.strip() for l in para)))
            para.clear()

    while i < len(lines):
        line = lines[i]
        if not line.strip() or re.match(r"^\s*<!--.*-->\s*$", line):
            flush()
            i += 1
            continue
        m = re.match(r"^(#+)\s+(.*)$", line)
        if m:
            flush()
            level, title = len(m.group(1)), m.group(2)
            if level == top:
                out.append(".SH " + quote(inline(title.upper())))
            elif level > top:
                out.append(".SS " + quote(inline(title)))
            i += 1
            continue
        if line.startswith("    ") and not para:  # an indented code block
            flush()
            out += [".PP", ".RS 4", ".nf"]
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                if lines[i].strip() or (i + 1 < len(lines) and lines[i + 1].startswith("    ")):
                    out.append(line_start(esc(lines[i][4:])))
                i += 1
            out += [".fi", ".RE"]
            continue
        if line.startswith("```"):
            flush()
            i += 1
            out += [".PP", ".RS 4", ".nf"]
            while i < len(lines) and not lines[i].startswith("```"):
                out.append(line_start(esc(lines[i])))
                i += 1
            out += [".fi", ".RE"]
            i += 1
            continue
        if line.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.match(r"^\|[\s:|-]+\|?\s*$", lines[i]):
                    rows.append(cells(lines[i]))
                i += 1
            out += table(rows)
            continue
        m = re.match(r"^(\s*)([-*]|\d+\.)\s+(.*)$", line)
        if m and not para:
            indent = len(m.group(1))
            item = [m.group(3)]
            i += 1
            while i < len(lines) and lines[i].strip() and \
                    not re.match(r"^\s*([-*]|\d+\.)\s+", lines[i]) and \
                    not lines[i].startswith(("```", "|", "#")):
                item.append(lines[i].strip())
                i += 1
            tag = "\\(bu" if m.group(2) in "-*" else m.group(2)
            if indent:
                out.append(".RS 2")
            out.append(f".IP {tag} 4")
            out.extend(roff_lines(" ".join(item)))
            if indent:
                out.append(".RE")
            continue
        para.append(line)
        i += 1
    flush()
    return out


def table(rows):
    """A pipe table as tagged paragraphs: the first cell is the tag; with more
    than two columns each further cell is prefixed by its column's heading."""
    if not rows:
        return []
    head, body = rows[0], rows[1:]
    out = []
    for row in body:
        out.append(".TP")
        out.append(line_start(inline(row[0])))
        rest = row[1:]
        if len(head) == 2:
            out.append(line_start(inline(rest[0] if rest else "")))
            continue
        for k, cell in enumerate(rest):
            if k:
                out.append(".br")
            name = head[k + 1] if k + 1 < len(head) else ""
            out.append(line_start((inline(name) + ": " if name else "") + inline(cell)))
    return out


def quote(text):
    return '"' + text.replace('"', '\\(dq') + '"'


def page(name, section, title, body):
    head = [
        ".\\\" Generated by tools/mkman.py from platter's --help, specs and docs/: edit those",
        ".TH " + esc(name.upper()) + f" {section} {quote(DATE)} "
        f"{quote('platter ' + version)} {quote(title)}",
    ]
    return "\n".join(head + body) + "\n"


# --- sources -----------------------------------------------------------------

def run(*args):
    return subprocess.run([platter, *args], check=True, capture_output=True, text=True,
                          env=dict(os.environ, PLATTER_LUA_DIR="")).stdout


def section(md, title):
    """The text under '## title' up to the next heading of that level or above."""
    m = re.search(r"^## " + re.escape(title) + r"\s*\n(.*?)(?=^##? |\Z)", md, re.M | re.S)
    return m.group(1) if m else None


def bold_sections(md):
    """Split "The command line" at its paragraph headings (**Exit status:**)
    into (title, text) pairs; the first title is None."""
    parts, title, cur = [], None, []
    for line in md.splitlines():
        m = re.match(r"^\*\*([^*]+?)([.:]?)\*\*(.*)$", line)
        if m and m.group(1) in ("Exit status", "Environment", "Files", "Error messages",
                                "Signals", "The script's arguments"):
            parts.append((title, "\n".join(cur)))
            # "**Signals.** The first..." loses its lead; "**Error messages** go..." keeps it
            lead = m.group(3).lstrip(" :") if m.group(2) else line
            title, cur = m.group(1), [lead]
        else:
            cur.append(line)
    parts.append((title, "\n".join(cur)))
    return parts


def help_parts(text):
    """`platter --help` as (usage lines, description, [(names, text)], tail)."""
    lines = text.splitlines()
    usage, desc, opts, tail = [], [], [], []
    state = "usage"
    for line in lines:
        if state == "usage":
            m = re.match(r"^(?:usage:)?\s+platter (.*)$", line)
            if m:
                usage.append(m.group(1))
                continue
            state = "desc"
        if state == "desc":
            if line.startswith("  -"):
                state = "opts"
            elif line.strip():
                desc.append(line.strip())
                continue
            else:
                continue
        if state == "opts":
            m = re.match(r"^  (-\S.*?)(?:\s{2,}(.*))?$", line)
            if m:
                opts.append([m.group(1), [m.group(2)] if m.group(2) else []])
            elif line.startswith("   ") and opts:
                opts[-1][1].append(line.strip())
            else:
                state = "tail"
        if state == "tail" and line.strip():
            tail.append(line.strip())
    return usage, desc, opts, tail


def option_tag(names):
    """ "--seed N" -> \\fB\\-\\-seed\\fR \\fIN\\fR; "--verbose, -v" both bold."""
    parts = []
    for alt in names.split(", "):
        words = alt.split()
        tag = "\\fB" + esc(words[0]) + "\\fR"
        if len(words) > 1:
            tag += " \\fI" + esc(" ".join(words[1:])) + "\\fR"
        parts.append(tag)
    return ", ".join(parts)


def platter_page():
    usage, desc, opts, tail = help_parts(run("--help"))
    body = [".SH NAME", "platter \\- a storage benchmark you program", ".SH SYNOPSIS"]
    for u in usage:
        body += [".br" if body[-1] != ".SH SYNOPSIS" else "", "\\fBplatter\\fR " + esc(u)]
    body = [b for b in body if b]
    desc = " ".join(desc)
    desc = re.sub(r"\s*Options:$", "", desc)
    body += [".SH DESCRIPTION", ".PP", line_start(esc(desc))]
    readme_intro = readme.split("\n## ")[0].split("\n", 2)[2]
    body += markdown(re.sub(r"<!--.*?-->\n```lua.*?```\n", "", readme_intro, flags=re.S))
    cmdline = section(api, "The command line")
    parts = bold_sections(cmdline)
    intro = re.sub(r"^```\n.*?```\n", "", parts[0][1], count=1, flags=re.S)
    m = re.search(r"^\|.*?\n(?!\|)", intro, re.M | re.S)  # the table of options
    details = intro[m.start():m.end()] if m else ""
    body += markdown(intro.replace(details, ""))
    body.append(".SH OPTIONS")
    for names, text in opts:
        body += [".TP", option_tag(names), line_start(esc(" ".join(text)))]
    if tail:
        body += [".PP"] + [line_start(esc(t)) for t in tail]
    if details:
        body += [".SS \"More on the options\""] + markdown(details)
    body += [".SH COMMANDS"]
    for u in usage:
        m = re.match(r"^([a-z]+)\b(.*)$", u)
        if m and m.group(1) != "list":
            body += [".TP", "\\fBplatter " + m.group(1) + "\\fR" + esc(m.group(2))]
            body.append({"compare": "put result files side by side",
                         "plot": "draw result files with gnuplot",
                         "rerun": "run a result file's command again, on the same script",
                         "pack": "write one file holding a script and the modules it "
                                 "requires (docs/sharing.md)",
                         "verify": "check a pack's hashes and list its members",
                         "selftest": "measure known rates and report platter's error"}
                        .get(m.group(1), "see docs/results.md"))
    body += [".TP", "\\fBplatter list\\fR", "the shipped workloads, as under WORKLOADS"]
    body += [".SH WORKLOADS", ".PP",
             "Each is a Lua script built into the binary, with its own page:"]
    for line in run("list").splitlines():
        name, _, what = line.partition(" ")
        body += [".TP", f"\\fBplatter {esc(name)}\\fR (see \\fBplatter\\-{esc(name)}\\fR(1))",
                 line_start(esc(what.strip()))]
    for title, text in parts[1:]:
        sh = {"Exit status": "EXIT STATUS", "Environment": "ENVIRONMENT", "Files": "FILES",
              "Error messages": "DIAGNOSTICS", "Signals": "SIGNALS",
              "The script's arguments": "SCRIPT ARGUMENTS"}[title]
        body.append(".SH " + quote(sh))
        body += markdown(text)
    using = section(readme, "Using it")
    if using:
        body.append(".SH EXAMPLES")
        body += markdown(using)
    body += see_also("platter")
    return page("platter", 1, "platter manual", body)


def see_also(me):
    pages = [("platter", 1)] + [(f"platter-{w}", 1) for w in workloads] + [("platter-lua", 3)]
    refs = [f"\\fB{esc(n)}\\fR({s})" for n, s in pages if n != me]
    return [".SH SEE ALSO", ",\n".join(refs),
            ".PP", "The full documentation: /usr/share/doc/platter/ (README.md, docs/*.md)."]


def header_comment(path):
    """A workload's opening comment: its first line, and the rest."""
    out = []
    for line in open(path, encoding="utf-8"):
        if not line.startswith("--"):
            break
        out.append(line[2:].rstrip("\n")[1:] if line[2:3] == " " else line[2:].rstrip("\n"))
    return out[0] if out else "", "\n".join(out[1:])


def comment_markdown(text):
    """The comment's own layout: paragraphs, bullets "  * " whose text goes on
    indented, and other indented lines kept as they are (a code block)."""
    lines, bullet = [], False
    for line in text.splitlines():
        m = re.match(r"^\s+\*\s+(.*)$", line)
        if m:
            lines.append("- " + m.group(1))
            bullet = True
        elif bullet and re.match(r"^\s{3,}\S", line):
            lines.append("  " + line.strip())
        elif re.match(r"^\s{2,}\S", line):
            bullet = False
            if lines and lines[-1].strip() and not lines[-1].startswith("    "):
                lines.append("")
            lines.append("    " + line)
        else:
            bullet = False
            if line.strip() and lines and lines[-1].startswith("    "):
                lines.append("")
            lines.append(line.strip())
    return "\n".join(lines)


def workload_page(name):
    spec = json.loads(run("complete", "--json", name))
    first, rest = header_comment(os.path.join(src, "workloads", name + ".lua"))
    body = [".SH NAME", f"platter\\-{esc(name)} \\- {esc(first)}", ".SH SYNOPSIS",
            f"\\fBplatter\\fR [\\fIglobal options\\fR] \\fB{esc(name)}\\fR "
            + esc(spec.get("usage") or "[options]")]
    body += [".SH DESCRIPTION"]
    if spec.get("summary"):
        body += [".PP", line_start(esc(spec["summary"]))]
    body += markdown(comment_markdown(rest))
    body.append(".SH OPTIONS")
    for o in spec.get("options", []):
        names = ", ".join(o["names"])
        tag = "\\fB" + esc(names) + "\\fR"
        if o.get("arg"):
            sep = "" if names.endswith("=") else " "
            tag += sep + "\\fI" + esc(o["arg"]) + "\\fR"
        text = o.get("help") or ""
        if o.get("choices"):
            text += " (one of " + ", ".join(o["choices"]) + ")"
        if o.get("default") is not None:
            text += f" (default {o['default']})"
        if o.get("multi"):
            text += "; may be given more than once"
        body += [".TP", tag, line_start(esc(text))]
    if spec.get("epilog"):
        body += [".PP"] + [line_start(esc(l)) for l in spec["epilog"].splitlines()]
    extra = section(workloads_md, name)
    if extra:
        body.append(".SH NOTES")
        body += markdown(extra, top=3)
    body += [".SH EXIT STATUS", ".PP",
             "0 ok, 1 error, 2 usage error (a bad flag), 130 interrupted; see \\fBplatter\\fR(1)."]
    body += see_also("platter-" + name)
    return page("platter-" + name, 1, "platter workloads", body)


def lua_page():
    intro, rest = api.split("## Conventions", 1)
    intro = re.sub(r"^- \[.*?\]\(#.*?\)\n", "", intro.split("\n", 1)[1], flags=re.M)
    body = [".SH NAME", "platter\\-lua \\- the Lua API of platter scripts (require \\(dqplatter\\(dq)",
            ".SH DESCRIPTION"]
    body += markdown(intro.replace("Contents:\n", "")) + markdown("## Conventions" + rest)
    body += see_also("platter-lua")
    return page("platter-lua", 3, "platter Lua API", body)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    platter, src, outdir = sys.argv[1:]
    read = lambda p: open(os.path.join(src, p), encoding="utf-8").read()
    api, readme, workloads_md = read("docs/api.md"), read("README.md"), read("docs/workloads.md")
    version = run("--version").split()[1]
    workloads = [l.split()[0] for l in run("list").splitlines()]
    os.makedirs(outdir, exist_ok=True)
    pages = {"platter.1": platter_page(), "platter-lua.3": lua_page()}
    for w in workloads:
        pages[f"platter-{w}.1"] = workload_page(w)
    for fname, text in pages.items():
        with open(os.path.join(outdir, fname), "w", encoding="utf-8") as f:
            f.write(text)
