#!/bin/sh
# Rebuilds the published ballots of this directory from their sources
# (docs/ballots.md): pydraughts' JSON files (the ACF 3-move and 2-move
# ballots) and lidraughts' OpeningTable.scala (the FMJD-64 and IDF tables).
# Only data is read from them: the openings' numbers, moves and
# arrangements. `draughts ballots import` replays every opening with our
# engine and writes the moves in our notation and the FEN it reaches.
#
#   crates/draughts/ballots/import.sh PYDRAUGHTS_GIT_DIR LIDRAUGHTS_GIT_DIR [DRAUGHTS]
#
# The git directories are clones (bare ones do) of
# github.com/AttackingOrDefending/pydraughts and github.com/RoepStoep/lidraughts;
# DRAUGHTS is the command-line tool (default: `cargo run -q -p draughts-cli --`).
# Needs jq and awk.
set -eu

py=$1
li=$2
draughts=${3:-cargo run -q -p draughts-cli --}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

show() { git --git-dir="$1" show "HEAD:$2"; }

# pydraughts: {"all": {"001 09-13 21-17 05-09": FEN, ...}, "standard": [keys], "lost": [keys]}.
show "$py" draughts/ballot_files/3move_english.json |
  jq -r '.standard[]' |
  awk '$1 != "026" { printf "3move-%s\tACF 3-move %s\t%s %s %s\n", $1, $1, $2, $3, $4 }' |
  sort >"$tmp/3move"
show "$py" draughts/ballot_files/2move_english.json |
  jq -r '.standard[]' |
  awk '{ printf "2move-%s\t2-move %s\t%s %s\n", $1, $1, $2, $3 }' |
  sort >"$tmp/2move"

# lidraughts: StartingPosition("7-XIII", FEN, "1. ef4 ...", "ef4 ba5 ...".some) per
# position; an arrangement has no numbered moves and "a1-a5 a7-h4" (White's
# man, then Black's, "-----" for none) instead; "Free" is the start position.
show "$li" modules/draughts/src/main/OpeningTable.scala >"$tmp/table"
rows() {
  grep -o 'StartingPosition("[^"]*", "[^"]*", "[^"]*", "[^"]*"' |
    awk -F'"' -v set="$1" -v title="$2" '
      BEGIN { split("I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI", r, " ")
              for (i in r) n[r[i]] = i }
      { split($2, c, "-"); opening = $8
        if (opening == "Free") opening = ""
        else if ($6 == "") {
          gsub(/-----/, "", opening); gsub(/ +/, " ", opening)
          sub(/^ /, "", opening); sub(/ $/, "", opening)
          opening = "arrangement " opening
          if (substr($4, 1, 1) == "B") opening = opening "\tblack"
        }
        printf "%s-%02d-%02d\t%s %s\t%s\n", set, c[1], n[c[2]], title, $2, opening }'
}
sed -n '/categoriesFmjd = /,/categoriesFmjdBrazilian = /p' "$tmp/table" | rows fmjd64 FMJD-64 >"$tmp/fmjd64"
sed -n '/categoriesIDFBasic = /,$p' "$tmp/table" | rows idf150 "IDF 150" >"$tmp/idf150"
# lidraughts' Brazilian table leaves these out.
dropped='1-IX 4-XV 5-IX 5-XI 19-V 25-XIII 30-XVI 40-XIV 41-XIII 42-XIV 43-II'
awk -F'\t' -v d="$dropped" 'BEGIN { split(d, x, " "); for (i in x) out["FMJD-64 " x[i]] = 1 }
  !($2 in out)' "$tmp/fmjd64" >"$tmp/fmjd64-brazilian"

$draughts ballots import --variant american --set 3move "$tmp/3move" \
  --note "pydraughts marks 157 of the 174 three-move openings standard; 026 (9-13 24-19 10-15) is barred too (Pask), which leaves the ACF's 156. Numbers are those of all 174 in pydraughts' order." \
  >"$here/american-3move.txt"
$draughts ballots import --variant american --set 2move "$tmp/2move" \
  --note "The 43 of the 49 two-move openings that pydraughts marks standard (it marks the other 6 lost)." \
  >"$here/american-2move.txt"
fmjd_notes() {
  variant=$1
  file=$2
  shift 2
  $draughts ballots import --variant "$variant" --set fmjd64 "$file" \
    --note "46 categories of 16 positions; most of categories 11 to 37 are arrangements (men moved off the start position by hand, White to move)." \
    --note "22-XV (arrangement e3-a5 e7-g5): Black to move, as both lidraughts and pydraughts give it." \
    --note "45-IX: its six moves leave White to move; both sources' FEN has Black to move. The moves are kept." \
    "$@"
}
fmjd_notes russian "$tmp/fmjd64" >"$here/russian-fmjd64.txt"
fmjd_notes brazilian "$tmp/fmjd64-brazilian" \
  --note "Brazilian: lidraughts leaves out 11 positions, $dropped, which leaves 725 (1-IX, 4-XV and 5-XI do not replay under the majority capture rule)." \
  >"$here/brazilian-fmjd64.txt"
for v in russian brazilian; do
  $draughts ballots import --variant $v --set idf150 "$tmp/idf150" \
    --note "15 categories of 10. 5-VII (Free) is the start position itself." \
    --note "2-IV (ef4 fe5 ab4): both sources give 2-V's FEN; the FEN here is the one its moves reach." \
    >"$here/$v-idf150.txt"
done
