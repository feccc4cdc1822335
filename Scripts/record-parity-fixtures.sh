#!/bin/sh
# Records the raw bytes real programs draw on an 80x24 pseudo-terminal into
# Tests/TerminalEmulatorTests/Fixtures/*.bytes, for the parity test against tmux
# (TmuxParityTests). Run from the repository root; needs python3, vim, less, top, ls, seq,
# git (for git-log.bytes; skipped without it).
#   sh Scripts/record-parity-fixtures.sh
# The recordings are committed: the test does not rerun the programs. The line-oriented
# ones (seq, ls-usr-bin, sgr-loop, python-repl, git-log, cjk-scroll) scroll far past one
# screen: their whole transcript (scrollback and screen) is compared with tmux's history.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/Tests/TerminalEmulatorTests/Fixtures"
rec="python3 $root/Scripts/record-pty.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$out"
cols=80 rows=24

# Records vim, then less, showing the text read on stdin (saved as $work/$2 first); $1 ends
# the fixtures' names: "" records vim.bytes and less.bytes, "-cjk" vim-cjk.bytes...
record_vim_and_less() {
    cat > "$work/$2"
    ( cd "$work" && $rec "$out/vim$1.bytes" $cols $rows --until-quiet 1 -- vim -u NONE -N -i NONE -n "$2" )
    ( cd "$work" && $rec "$out/less$1.bytes" $cols $rows --until-quiet 1 -- less "$2" )
}

# A sample text file.
{
    echo "The quick brown fox jumps over the lazy dog."
    for i in $(seq 60); do
        printf 'line %02d: %s\n' "$i" "lorem ipsum dolor sit amet, consectetur adipiscing elit"
    done
} | record_vim_and_less "" sample.txt
# Wide characters, emoji and long wrapped lines inside full-screen programs.
{
    echo "漢字とカナ mixed with ASCII: 中文字符 한국어 ＡＢＣ"
    echo "emoji 😀 🚀 🎉 between words"
    for i in $(seq 8); do
        printf '%d: %s\n' "$i" "a long line that wraps around the edge of the screen 一二三四五六七八九十 and keeps going until it wraps again $i"
    done
} | record_vim_and_less -cjk cjk.txt
# top shows only itself (-p $$ after exec), so no other process of the machine is recorded.
$rec "$out/top.bytes" $cols $rows -- sh -c 'exec top -b -n1 -w 80 -p $$'
$rec "$out/top-interactive.bytes" $cols $rows --until-quiet 1 -- sh -c 'exec top -d 100 -p $$'
( cd "$work" && mkdir -p listing && cd listing && mkdir dir1 dir2 && touch a.txt b.swift && \
  printf '#!/bin/sh\n' > run.sh && chmod +x run.sh && ln -s a.txt link && \
  $rec "$out/ls-color.bytes" $cols $rows -- ls -l --color=always --time-style=+2024 . )

# Colours, attributes, CJK and emoji through printf.
$rec "$out/printf-colors.bytes" $cols $rows -- sh -c '
printf "\033[1mbold\033[22m \033[3mitalic\033[23m \033[4munder\033[24m \033[7minverse\033[27m\r\n"
for i in 0 1 2 3 4 5 6 7; do printf "\033[3${i}m fg$i\033[4${i}m bg$i\033[m"; done; printf "\r\n"
for i in 16 52 88 124 160 196 226; do printf "\033[38;5;${i}mc$i \033[48:5:${i}mb$i\033[m "; done; printf "\r\n"
printf "\033[38;2;255;100;0mtruecolor\033[48:2::0:80:160m both\033[m\r\n"
printf "CJK: 中文字符 日本語 한국어 fullwidth: ＡＢＣ\r\n"
printf "emoji: 😀 🚀 🎉 end\r\n"
printf "combining: e\314\201 a\314\200 n\314\203 end\r\n"
printf "wide wrap: 0123456789012345678901234567890123456789012345678901234567890123456789012345678中文\r\n"
printf "tabs:\tone\ttwo\tthree\r\n"
printf "erase: XXXXXXXXXX\033[5D\033[K|\r\n"
printf "insert: abcdef\033[3D\033[2@--\r\n"
printf "delete: abcdef\033[4D\033[2P\r\n"
printf "\033[20;10Habsolute\033[2;70Hright\033[24;1H"
'

# A dialog-like box drawn with DEC special graphics, a scroll region and origin mode.
$rec "$out/dialog-box.bytes" $cols $rows -- sh -c '
printf "\033[H\033[2J"
printf "\033[44m\033[2J\033[H Backtitle\r\n"
printf "\033[6;20H\033[47;30m\033(0lqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqk\033(B"
row=7
while [ $row -le 14 ]; do
  printf "\033[${row};20H\033(0x\033(B%38s\033(0x\033(B" ""
  row=$((row + 1))
done
printf "\033[15;20H\033(0mqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqj\033(B"
printf "\033[6;33H Question \033[8;23HDo you want to continue?"
printf "\033[12;26H\033[7m< Yes >\033[27m      < No  >"
printf "\033)0\016\033[10;22Hqqqqqqqqqq\017\033[m"
printf "\033[18;1H\033[0mscroll region:\r\n1\r\n2\r\n3\r\n4"
printf "\033[19;22r\033[22;1H\nA\nB\033[r"
printf "\033[?6h\033[5;7r\033[1;3Horigin\033[?6l\033[r\033[24;1H"
'

# Line-oriented programs whose output scrolls off the top (the transcript parity test).
$rec "$out/seq.bytes" $cols $rows -- seq 1 2000
# Dates vary between machines: a fixed year, as in ls-color. Only /usr/bin's names and sizes.
$rec "$out/ls-usr-bin.bytes" $cols $rows -- env LC_ALL=C ls -l --time-style=+2024 /usr/bin
$rec "$out/sgr-loop.bytes" $cols $rows -- sh -c '
for i in $(seq 300); do printf "\033[3%dmline-%d\033[m\n" $((i%8)) $i; done'
# A python3 REPL: input is typed at each prompt (record-pty.py --type), so the program
# echoes it; HOME is the temporary folder so ~/.python_history is neither read nor written.
$rec "$out/python-repl.bytes" $cols $rows \
    --prompt '>>> ' --prompt '... ' \
    --type '2 ** 100\r' \
    --type '"-".join(["tmux", "parity"]) * 3\r' \
    --type '[n * n for n in range(15)]\r' \
    --type '{"name": "scrollback", "lines": [1, 2, 3], "wide": "中文"}\r' \
    --type 'int("seven")\r' \
    --type 'for i in range(60):\r' \
    --type '    print(f"row {i:2d}", "#" * (i % 40))\r' \
    --type '\r' \
    --type 'print("done")\r' \
    --type '\x04' \
    -- env HOME="$work" PYTHONSTARTUP= python3 -q
# This repository's own history, up to a fixed commit so that a new recording is the same
# (no decorations: they name the branches of the moment).
git_rev=49fe7797fe9acd09e5aa531f589069ff7590d255
if command -v git >/dev/null && git -C "$root" cat-file -e "$git_rev" 2>/dev/null; then
    ( cd "$root" && $rec "$out/git-log.bytes" $cols $rows -- \
        git --no-pager -c color.ui=always log --no-decorate --stat -n 40 "$git_rev" )
else
    echo "git or commit $git_rev missing: git-log.bytes not recorded" >&2
fi
# Wide and combining characters scrolling off, and at the right edge.
$rec "$out/cjk-scroll.bytes" $cols $rows -- sh -c '
i=1
while [ $i -le 50 ]; do
  printf "%02d 漢字かな 한국어 ｗｉｄｅ e\314\201 n\314\203 a\314\200\314\201 \033[1m中文\033[m 😀 end\r\n" $i
  i=$((i + 1))
done
printf "%079d中 did not fit: the last column is blank\r\n" 0
printf "%080d\314\201 a mark at the pending wrap joins the last column\r\n" 0
printf "中文%076d字 at the start of the next row\r\n" 0
printf "漢\314\201 a mark on a wide character\r\n"
i=1
while [ $i -le 30 ]; do printf "tail %02d 日本語\r\n" $i; i=$((i + 1)); done
'
echo "recorded into $out:"
ls -l "$out"
