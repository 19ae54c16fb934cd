#!/usr/bin/env bash
# Builds and runs ABRSim's libFuzzer targets (one per input reader; sources in Tests/Fuzz/Targets/).
#
#   Tests/Fuzz/fuzz.sh [--seconds N] [--jobs J] [TARGET…]   fuzz each target for N seconds (default 600) with J
#                                                             processes (default 1), collecting every finding
#   Tests/Fuzz/fuzz.sh --ci [TARGET…]                         each target a few seconds over its corpus; exit 1 on
#                                                             any finding (crash, hang, out-of-memory)
#   Tests/Fuzz/fuzz.sh --build | --list | --make-seeds
#
# The library is compiled once with swiftc (-O, bounds and overflow checks kept, -enable-testing,
# -sanitize=fuzzer,address) into .build-fuzz/ (never .build/, so `swift build` and `swift test` are untouched),
# then each target is linked against it. Seeds are in Tests/Fuzz/corpus/<target>/ (committed; --make-seeds
# rebuilds them from the shipped data); inputs the fuzzer finds go to .build-fuzz/corpus/<target>/, findings to
# .build-fuzz/findings/<target>/ and logs to .build-fuzz/logs/. A finding is a crash or trap, an input taking
# longer than -timeout seconds, or an allocation beyond -malloc_limit_mb / -rss_limit_mb.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
fuzz="$root/Tests/Fuzz"
build="${ABRSIM_FUZZ_BUILD:-$root/.build-fuzz}"  # ABRSIM_FUZZ_BUILD: another build folder (a CI cache)
seconds=600
jobs=1
ci=0
action=run
targets=()

# target name → source file in Tests/Fuzz/Targets and dictionary in Tests/Fuzz/dict ("-": none).
declare -A source=(
    [trace-mahimahi]=TraceMahimahi [trace-pensieve]=TracePensieve [trace-sabre]=TraceSabre
    [trace-csv]=TraceCSV [trace-detect]=TraceDetect [scenario]=Scenario [hls-master]=HLSMaster
    [hls-media]=HLSMedia [sabre-movie]=SabreMovie [pensieve-sizes]=PensieveSizes [policy-reply]=PolicyReply
    [command-list]=CommandList [child-text]=ChildText
)
declare -A dictionary=(
    [trace-mahimahi]=- [trace-pensieve]=- [trace-sabre]=json [trace-csv]=csv [trace-detect]=csv
    [scenario]=json [hls-master]=hls [hls-media]=hls [sabre-movie]=json [pensieve-sizes]=- [policy-reply]=json
    [command-list]=- [child-text]=-
)
all=(trace-mahimahi trace-pensieve trace-sabre trace-csv trace-detect scenario hls-master hls-media sabre-movie
    pensieve-sizes policy-reply command-list child-text)

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --ci) ci=1; seconds="${ABRSIM_FUZZ_CI_SECONDS:-5}"; shift ;;
        --build) action=build; shift ;;
        --list) printf '%s\n' "${all[@]}"; exit 0 ;;
        --make-seeds) action=seeds; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
        *)
            if [ -z "${source[$1]:-}" ]; then
                echo "fuzz.sh: unknown target $1 (known: ${all[*]})" >&2
                exit 2
            fi
            targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

swift_flags=(-O -sanitize=fuzzer,address -swift-version 6 -parse-as-library)

# Compiles Sources/ABRSim into .build-fuzz/libABRSim.a when a source is newer than the library.
build_library() {
    mkdir -p "$build/mod"
    [ -f "$build/.gitignore" ] || echo '*' >"$build/.gitignore"
    local library="$build/libABRSim.a"
    if [ -f "$library" ] && [ -z "$(find "$root/Sources/ABRSim" -name '*.swift' -newer "$library" | head -1)" ]; then
        return
    fi
    echo "fuzz.sh: compiling the ABRSim library (instrumented)…" >&2
    local files
    mapfile -t files < <(find "$root/Sources/ABRSim" -name '*.swift' | sort)
    swiftc -module-name ABRSim -emit-library -static -emit-module -emit-module-path "$build/mod/ABRSim.swiftmodule" \
        -enable-testing -wmo -num-threads 2 -I "$root/Sources/CGSL" "${swift_flags[@]}" "${files[@]}" \
        -o "$library.tmp"
    mv "$library.tmp" "$library"
}

# Links one target against the library when its sources are newer than its binary.
build_target() {
    local target="$1" binary="$build/fuzz-$1"
    local files=("$fuzz/Targets/FuzzSupport.swift" "$fuzz/Targets/${source[$1]}.swift")
    if [ -f "$binary" ] && [ "$binary" -nt "$build/libABRSim.a" ] && [ "$binary" -nt "${files[0]}" ] \
        && [ "$binary" -nt "${files[1]}" ]; then
        return
    fi
    swiftc "${swift_flags[@]}" -I "$build/mod" -I "$root/Sources/CGSL" "${files[@]}" "$build/libABRSim.a" \
        -lgsl -lgslcblas -lm -o "$binary" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
}

# Small copies of the shipped traces and content, under the names the shipped scenarios use, for `scenario`
# (so a loaded scenario's trace costs microseconds, not the megabytes of the full trace).
prepare_data() {
    local data="$build/data"
    [ -d "$data/traces" ] && return
    mkdir -p "$data/traces" "$data/content" "$data/policies"
    for trace in "$root"/scenarios/traces/*; do
        case "$trace" in *.md) continue ;; esac
        head -n 400 "$trace" >"$data/traces/$(basename "$trace")"
    done
    cp -r "$root/scenarios/content/hls-apple" "$data/content/"
    cp "$root/scenarios/policies/bba.py" "$data/policies/"
    cp "$fuzz/corpus/sabre-movie/small.json" "$data/content/movie.json"
    mkdir -p "$data/content/pensieve"
    for i in 0 1 2; do printf '%s\n' 1000 2000 3000 >"$data/content/pensieve/video_size_$i"; done
}

# Rebuilds the committed seeds from the shipped data (scenarios/data and scenarios/).
make_seeds() {
    local shared="$root/scenarios/data" corpus="$fuzz/corpus"
    mkdir -p "$corpus"/{trace-mahimahi,trace-pensieve,trace-sabre,trace-csv,trace-detect,scenario,hls-master}
    mkdir -p "$corpus"/{hls-media,sabre-movie,pensieve-sizes,policy-reply}
    for trace in "$shared"/traces/mahimahi/*.down; do
        head -n 300 "$trace" >"$corpus/trace-mahimahi/$(basename "$trace")"
    done
    # One seed past LineReader's 64 KiB buffer, so lines that straddle two reads are exercised.
    head -c 70000 "$shared/traces/mahimahi/TMobile-LTE-short.down" >"$corpus/trace-mahimahi/long-70k.down"
    cp "$shared/traces/pensieve/test/norway_tram_37" "$shared/traces/pensieve/test/norway_train_5" \
        "$corpus/trace-pensieve/"
    head -n 40 "$shared/traces/pensieve/train/trace_10367_http---www.facebook.com" >"$corpus/trace-pensieve/fcc-40"
    cp "$shared/traces/sabre/example-network.json" "$corpus/trace-sabre/"
    { head -n 41 "$shared/traces/sabre/3g/report.2010-09-13_1003CEST.json" | sed '$ s/},$/}/'; echo ']'; } \
        >"$corpus/trace-sabre/3g-head"
    cp "$root"/scenarios/*.json "$corpus/scenario/"
    for scenario in "$root"/scenarios/ci/*.json; do cp "$scenario" "$corpus/scenario/ci-$(basename "$scenario")"; done
    cp "$root/scenarios/content/hls-apple/master.m3u8" "$corpus/hls-master/"
    cp "$root/scenarios/content/hls-apple/video_145k.m3u8" "$root/scenarios/content/hls-apple/video_7800k.m3u8" \
        "$corpus/hls-media/"
    cp "$shared/content/sabre/bbb4k.json" "$corpus/sabre-movie/"
    cp "$shared/content/pensieve-envivio/video_size_0" "$corpus/pensieve-sizes/"
    cp "$corpus"/trace-mahimahi/Verizon-LTE-short.down "$corpus"/trace-pensieve/norway_tram_37 \
        "$corpus"/trace-sabre/example-network.json "$corpus"/trace-csv/*.csv "$corpus/trace-detect/"
}

# Runs one target. CI: plain mode, stopping at the first finding. Otherwise fork mode, which carries on past
# crashes, timeouts and out-of-memory inputs so one run collects them all (each saved in findings/).
run_target() {
    local target="$1" binary="$build/fuzz-$1"
    local work="$build/corpus/$target" findings="$build/findings/$target" log="$build/logs/$target.log"
    mkdir -p "$findings" "$build/logs"
    local options=(-max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=512
        -artifact_prefix="$findings/" -print_final_stats=1)
    [ "${dictionary[$target]}" = - ] || options+=(-dict="$fuzz/dict/${dictionary[$target]}.dict")
    if [ "$ci" = 1 ]; then
        # New inputs go to a throw-away folder: CI leaves the committed seeds and .build-fuzz/corpus alone.
        work="$scratch/corpus-$target"
        options+=(-max_len=8192)
    else
        options+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    fi
    mkdir -p "$work"
    local before status=0
    before="$(find "$findings" -type f | wc -l)"
    # SWIFT_BACKTRACE: a Swift trap goes straight to libFuzzer's handler, not the runtime's (slow) backtracer.
    SWIFT_BACKTRACE=enable=no ABRSIM_FUZZ_DATA="$build/data" ABRSIM_FUZZ_SCRATCH="$scratch" \
        "$binary" "${options[@]}" "$work" "$fuzz/corpus/$target" >"$log" 2>&1 || status=$?
    local found=$(($(find "$findings" -type f | wc -l) - before))
    local summary
    if [ "$ci" = 1 ]; then
        summary="$(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" \
            | sed 's/^stat:://; s/: */=/' | tr '\n' ' ')$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)"
    else
        summary="$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)"
    fi
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        echo "FAIL $target (exit $status, $found new findings in ${findings#"$root"/}): $summary"
        grep -Em3 'ERROR: |Fatal error|fatal error' "$log" | sed 's/^/    /' || true
        return 1
    fi
    echo "ok   $target: $summary"
}

if [ "$action" = seeds ]; then
    make_seeds
    exit 0
fi

build_library
for target in "${targets[@]}"; do build_target "$target"; done
prepare_data
[ "$action" = build ] && exit 0

scratch="$(mktemp -d "${TMPDIR:-/dev/shm}/abrsim-fuzz.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
failed=0
for target in "${targets[@]}"; do run_target "$target" || failed=1; done
exit "$failed"
