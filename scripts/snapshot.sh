#!/usr/bin/env bash
# Every output format of ktr on the shared dev sets, written to one folder, so that a change meant
# to leave scores alone (a refactoring) can be checked byte for byte:
#
#     scripts/snapshot.sh before/        # on the commit before the change
#     scripts/snapshot.sh after/         # on the change
#     diff -r before/ after/             # nothing but the version in the signatures
#
# Needs ../shared/data (the parallel dev sets, not shipped) and ktr with the mecab extra. Each
# system is the human translation and a mismatched one (each line against the translation half
# the file away), with the human translation as the reference.
set -euo pipefail
out=${1:?usage: scripts/snapshot.sh OUTDIR}
cd "$(dirname "$0")/.."
# this checkout's ktr, whatever is installed: python -m from the project root imports ./ktr
ktr() { python -m ktr.cli "$@"; }
data=${KTR_DATA:-../shared/data}
[ -d "$data" ] || { echo "snapshot: needs $data (the shared parallel data)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for set in news-dev jhe-dev; do
    src=$data/$set.ko ref=$data/$set.en
    n=$(wc -l < "$ref")
    # the mismatched system: line i is the translation of line i + n/2 (mod n)
    awk -v n="$n" '{ a[NR] = $0 } END { h = int(n / 2); for (i = 1; i <= n; i++) print a[(i - 1 + h) % n + 1] }' \
        "$ref" > "$tmp/$set.mismatched.en"
    sys=("$ref" "$tmp/$set.mismatched.en")
    for analyzer in kiwi mecab; do
        ktr score -s "$src" -t "${sys[@]}" -r "$ref" -a "$analyzer" -f json --sentences > "$out/$set.$analyzer.json"
    done
    ktr score -s "$src" -t "${sys[@]}" -r "$ref" > "$out/$set.text"
    ktr score -s "$src" -t "${sys[@]}" -c configs/paper.yaml -f json --sentences > "$out/$set.paper.json"
    ktr score -s "$src" -t "${sys[@]}" -r "$ref" -f tsv > "$out/$set.tsv"
    ktr score -s "$src" -t "${sys[@]}" --explain > "$out/$set.explain"
    ktr score -s "$src" -t "${sys[@]}" -r "$ref" --paired-bs -f json > "$out/$set.paired.json"
    ktr meta-eval -s "$src" -r "$ref" --gold "tests/data/judged/$set.tsv" -o "$out/$set.gold"
    ktr meta-eval -s "$src" -r "$ref" -o "$out/$set.meta-eval"
done
# the same through worker processes and a local Dask cluster (their merge of the lines' results)
ktr score -s "$data/jhe-dev.ko" -t "$data/jhe-dev.en" "$tmp/jhe-dev.mismatched.en" -r "$data/jhe-dev.en" -a mecab --jobs 2 --paired-bs -f json --sentences > "$out/jhe-dev.jobs.json"
ktr score -s "$data/jhe-dev.ko" -t "$data/jhe-dev.en" "$tmp/jhe-dev.mismatched.en" -r "$data/jhe-dev.en" --engine dask --workers 2 --paired-bs -f json --sentences > "$out/jhe-dev.dask.json"
ktr run -q configs/demo.yaml -o "$out/demo"
# the per-line figures under the other policies: the weighted aggregation's sentence rows, and
# ktr run's per-class table with keywords without an entry excluded
printf 'aggregation: weighted\n' > "$tmp/weighted.yaml"
ktr score --sample -c "$tmp/weighted.yaml" -f tsv > "$out/sample.weighted.tsv"
ktr score --sample -c "$tmp/weighted.yaml" --sentences > "$out/sample.weighted.text"
ktr score -s "$data/news-dev.ko" -t "$data/news-dev.en" -c "$tmp/weighted.yaml" -f tsv > "$out/news-dev.weighted.tsv"
printf '%s\n' '케빈은 어제 서울에 왔다.' '테네시 타이탄스가 경기에서 이겼다.' '클린턴 대통령이 연설했다.' > "$tmp/names.ko"
printf '%s\n' 'Kevin came to Seoul yesterday.' 'The Tennessee Titans won the game.' 'President Clinton gave a speech.' > "$tmp/names.en"
printf 'name: names\ndata: {source: names.ko, systems: {human: names.en}}\npipeline: {missing_in_lexicon: exclude}\n' > "$tmp/exclude.yaml"
ktr run -q "$tmp/exclude.yaml" -o "$out/demo-exclude"
# the sys names carry the temporary folder's path: write it as the same placeholder everywhere
grep -rl "$tmp" "$out" | xargs -r sed -i "s#$tmp#TMP#g" || true  # none: nothing to replace
echo "snapshot: $(find "$out" -type f | wc -l) files in $out"
