#!/usr/bin/env bash
# End-to-end test of live captions (`warble transcribe --live`) with a real sound server: a private
# PulseAudio with a null sink, speech played into it with paplay, its monitor recorded by warble
# through libpulse.
#
# Checks: --list-sources shows the null sink's monitor; the words played are printed while capture goes
# on, and the delay from the end of playback to the printed line is measured (and printed); --max-seconds
# ends the capture, exit 0; Ctrl-C (SIGINT) right after the speech keeps what was heard (printed, exit 0);
# --format json gives a JSON object per line; the errors: no server (PULSE_SERVER=unix:/nonexistent), an
# unknown source (the message lists the sources), --live with files, --source without --live; and
# `warble translate --live --to pt`: the Portuguese printed as it is heard and spoken into -o; `--model
# sensevoice-small` (tools/sensevoice's synthetic export) prints a caption with its tags, `--model
# parakeet-tdt-0.6b-v3` and `--model whisper-large-v3-turbo` (synthetic and miniature) a caption. Both live
# sessions are then found in the history (captions and spoken audio; the audio heard is not kept).
#
#   scripts/test-live.sh              # the test build (lib.sh's test_build, shared with scripts/test.sh)
#   scripts/test-live.sh --release    # a plain release build in .build, for the delay figure
# Environment: KEEP=1 keeps the work directory, WARBLE_NO_BUILD=1 uses the test build's warble as it is,
# LIVE_MAX_DELAY (seconds, default 8) is the delay allowed. Needs the models (scripts/setup.sh). Last line: "N passed, N failed";
# exits non-zero on any failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

release=0
[[ "${1:-}" == "--release" ]] && release=1
# Both builds are optimised (the test build is release with testability); the bound leaves room for a busy machine.
max_delay="${LIVE_MAX_DELAY:-8}"

# --- packages -----------------------------------------------------------------------------------
packages=(pulseaudio pulseaudio-utils)
install_debian_packages "${packages[@]}"
[[ -d "$WARBLE_HOME/models/whisper-tiny.en" && -d "$WARBLE_HOME/models/silero-vad" ]] \
    || die "whisper-tiny.en or silero-vad is not installed in $WARBLE_HOME/models: run scripts/setup.sh first"

# --- build --------------------------------------------------------------------------------------
if [[ $release == 1 ]]; then
    say "building warble (release)"
    swift build -c release --product warble >/dev/null || die "building warble failed"
    warble="$(swift build -c release --show-bin-path)/warble"
else
    warble="$(test_bin)/warble"  # the test build's (built when missing)
fi
[[ -x "$warble" ]] || die "no warble at $warble"

# --- a private PulseAudio -----------------------------------------------------------------------
work="$(mktemp -d /tmp/warble-live.XXXXXX)"
pids=()
cleanup() {
    set +e
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${pids[@]}"; do
        for _ in {1..30}; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    done
    if [[ "${KEEP:-0}" == 1 ]]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

mkdir -p "$work"/{home,run,log}
chmod 700 "$work/run"
export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/home/.config"
export PULSE_SERVER="unix:$work/run/native"
unset DISPLAY DBUS_SESSION_BUS_ADDRESS

passed=0
failed=0
pass() { printf 'PASS %s\n' "$*"; passed=$((passed + 1)); }
fail() { printf 'FAIL %s\n' "$*"; failed=$((failed + 1)); }

start_pulseaudio "$work" "module-null-sink sink_name=captions rate=48000 channels=2"

# wait_for FILE PATTERN SECONDS -> succeeds as soon as FILE has a line matching PATTERN (grep -i -E).
wait_for() {
    local deadline=$((SECONDS + $3))
    while ((SECONDS < deadline)); do
        grep -qiE "$2" "$1" 2>/dev/null && return 0
        sleep 0.02
    done
    return 1
}
now() { date +%s.%N; }

# listen_and_play NAME PATTERN COMMAND... -> starts COMMAND (a live capture) in the background, its output
# in $work/NAME.out and .err, plays the speech into the sink once it listens, and waits for PATTERN in
# its output. Sets live_pid, and delay (seconds from the end of playback to the line). Returns 1 when it
# never listened, 2 when the line never came.
listen_and_play() {
    local name="$1" pattern="$2" played
    shift 2
    "$@" >"$work/$name.out" 2>"$work/$name.err" &
    live_pid=$!
    pids+=("$live_pid")
    wait_for "$work/$name.err" "listening" 60 || return 1
    sleep 0.5  # a little silence before the speech
    paplay -d captions "$work/fox.wav"
    played="$(now)"
    wait_for "$work/$name.out" "$pattern" 60 || return 2
    delay="$(awk -v a="$played" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')"
}

# The speech: Piper, 22050 Hz mono (played into a 48 kHz stereo sink: the server converts both ways).
"$warble" say -q "The quick brown fox jumps over the lazy dog." -o "$work/fox.wav" || die "warble say failed"

# --- --list-sources -----------------------------------------------------------------------------
if "$warble" transcribe --list-sources >"$work/sources.out" 2>&1 && grep -qE '^captions\.monitor +monitor' "$work/sources.out"; then
    pass "--list-sources shows the null sink's monitor: $(grep '^captions.monitor' "$work/sources.out")"
else
    fail "--list-sources shows captions.monitor: $(cat "$work/sources.out")"
fi

# --- captions while capture goes on, the delay, --max-seconds -----------------------------------
live=("$warble" transcribe --live --source captions.monitor --model whisper-tiny.en)
result=0
listen_and_play live "quick brown fox" "${live[@]}" --max-seconds 30 || result=$?
if [[ $result == 0 ]]; then
    if awk -v d="$delay" -v m="$max_delay" 'BEGIN { exit !(d < m) }'; then
        pass "the words are printed $delay s after the end of playback ($([[ $release == 1 ]] && echo release || echo test) build; allowed: $max_delay s): $(head -1 "$work/live.out")"
    else
        fail "the words are printed $delay s after the end of playback, more than $max_delay s"
    fi
    # The capture is still going (30 s): the line came out live, not at the end.
    if kill -0 "$live_pid" 2>/dev/null; then pass "the line was printed while capturing"; else fail "warble had already ended when the line came"; fi
elif [[ $result == 2 ]]; then
    fail "the words played are printed: got '$(cat "$work/live.out")'; stderr: $(tail -3 "$work/live.err")"
else
    fail "warble transcribe --live starts listening: $(tail -3 "$work/live.err")"
fi
kill -INT "$live_pid" 2>/dev/null || true
status=0
wait "$live_pid" || status=$?
[[ $status == 0 ]] && pass "ended by SIGINT after the caption: exit 0" || fail "ended by SIGINT after the caption: exit $status"

# --max-seconds on silence: ends by itself, exit 0, prints nothing.
t0="$(now)"
if "${live[@]}" --max-seconds 2 >"$work/silence.out" 2>"$work/silence.err"; then
    elapsed="$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')"
    if [[ ! -s "$work/silence.out" ]] && grep -q "max-seconds reached" "$work/silence.err"; then
        pass "--max-seconds 2 on silence: nothing printed, ended by itself after $elapsed s (with the model load)"
    else
        fail "--max-seconds 2 on silence: printed '$(cat "$work/silence.out")'; stderr: $(tail -2 "$work/silence.err")"
    fi
else
    fail "--max-seconds 2 on silence exits 0: $(tail -2 "$work/silence.err")"
fi

# --- Ctrl-C right after the speech keeps what was heard -------------------------------------------
kept_fox() { "$warble" history search fox --limit 1000 --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'; }
fox_before="$(kept_fox)"
"${live[@]}" --format json >"$work/sigint.out" 2>"$work/sigint.err" &
live_pid=$!
pids+=("$live_pid")
if wait_for "$work/sigint.err" "listening" 60; then
    paplay -d captions "$work/fox.wav"
    kill -INT "$live_pid"
    status=0
    wait "$live_pid" || status=$?
    if [[ $status == 0 ]] && grep -qi "quick brown fox" "$work/sigint.out" \
        && python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1]) if l.strip()]' "$work/sigint.out" \
        && grep -q "stopped by a signal" "$work/sigint.err"; then
        pass "Ctrl-C right after the speech: exit 0, the speech recognised and printed (JSON lines): $(head -c 160 "$work/sigint.out")"
    else
        fail "Ctrl-C right after the speech: exit $status, out: $(cat "$work/sigint.out"); err: $(tail -2 "$work/sigint.err")"
    fi
    # The live session is kept in the history: its captions, the model, no audio (the input was never a file).
    newest="$("$warble" history list --limit 1 --json)"
    if [[ "$(kept_fox)" == $((fox_before + 1)) ]] && python3 -c '
import json, sys
s = json.loads(sys.argv[1])[0]
assert s["kind"] == "transcription" and s["model"] == "whisper-tiny.en" and "fox" in s["preview"].lower(), s' "$newest"; then
        pass "the live session is kept in the history (a transcription of whisper-tiny.en with the words)"
    else
        fail "the live session is kept in the history: $(kept_fox) sessions with fox (before: $fox_before); newest: $newest"
    fi
else
    fail "warble transcribe --live --format json starts listening: $(tail -3 "$work/sigint.err")"
fi

# --- translate --live: the same speech translated into Portuguese as it is heard, spoken into -o ----
# A WARBLE_HOME with the installed models and the Marian EN→PT fixture (tools/marian/make_fixtures.py,
# which scripts/test.sh runs first: what `warble models pull pypi:marian-enpt-tiny` installs).
marian="$warble_root/Tests/Fixtures/generated/marian/enpt"
if [[ -d "$marian" ]]; then
    mkdir -p "$work/thome/models"
    for model in "$WARBLE_HOME/models"/*/; do ln -s "${model%/}" "$work/thome/models/$(basename "$model")"; done
    ln -s "$marian" "$work/thome/models/marian-enpt-tiny"
    [[ -d "$WARBLE_HOME/lib" ]] && ln -s "$WARBLE_HOME/lib" "$work/thome/lib"
    result=0
    listen_and_play tlive "raposa" env WARBLE_HOME="$work/thome" "$warble" translate --live --source captions.monitor --to pt \
        --language en --model whisper-tiny.en --max-seconds 60 -o "$work/live-pt.wav" || result=$?
    if [[ $result == 0 ]]; then
        pass "translate --live: the Portuguese is printed $delay s after the end of playback: $(head -1 "$work/tlive.out")"
    elif [[ $result == 2 ]]; then
        fail "translate --live prints the Portuguese (raposa): got '$(cat "$work/tlive.out")'; stderr: $(tail -3 "$work/tlive.err")"
    else
        fail "warble translate --live starts listening: $(tail -3 "$work/tlive.err")"
    fi
    kill -INT "$live_pid" 2>/dev/null || true
    status=0
    wait "$live_pid" || status=$?
    seconds="$(soxi -D "$work/live-pt.wav" 2>/dev/null || echo 0)"
    if [[ $status == 0 ]] && awk -v s="$seconds" 'BEGIN { exit !(s > 1) }' && grep -q "1 segment translated" "$work/tlive.err" \
        && grep -q "kokoro-jm_kumo, speaking pt-BR" "$work/tlive.err"; then
        pass "translate --live: Ctrl-C ends it (exit 0) with $seconds s of Portuguese speech in the -o file"
    else
        fail "translate --live ends with exit 0 and speech in -o: exit $status, $seconds s; $(tail -3 "$work/tlive.err")"
    fi
    # Its session is kept: the Portuguese, and the speech written to -o byte for byte.
    kept="$(env WARBLE_HOME="$work/thome" "$warble" history list --json)"
    id="$(python3 -c 'import json, sys; s = json.loads(sys.argv[1]); print(s[0]["id"] if len(s) == 1 and s[0]["kind"] == "translation" else "")' "$kept")"
    if [[ -n "$id" ]] && env WARBLE_HOME="$work/thome" "$warble" history show "$id" --json > "$work/tkept.json" && python3 -c '
import hashlib, json, sys
s = json.load(open(sys.argv[1]))
texts = {t["role"]: t["text"] for t in s["texts"]}
audio = {a["role"]: a for a in s["audio"]}
assert "raposa" in texts["translation"].lower() and set(audio) == {"output"}, (texts, audio)
assert audio["output"]["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()' "$work/tkept.json" "$work/live-pt.wav"; then
        pass "translate --live keeps its session: the Portuguese and the spoken audio (same bytes as -o)"
    else
        fail "translate --live keeps its session: list: $kept; show: $(head -c 300 "$work/tkept.json" 2>/dev/null)"
    fi
else
    fail "translate --live needs $marian (made by tools/marian/make_fixtures.py; scripts/test.sh makes it)"
fi

# --- another recognition family: SenseVoice (tools/sensevoice's synthetic export as sensevoice-small) ---
# Its random weights make no words: a caption line (JSON, with the model's tags) is what is checked.
if [[ -f "$warble_root/Tests/Fixtures/generated/sensevoice/repo/model.onnx" ]]; then
    models_with_seed_fixtures "$work/svhome/models"
    [[ -d "$WARBLE_HOME/lib" ]] && ln -s "$WARBLE_HOME/lib" "$work/svhome/lib"
    result=0
    listen_and_play svlive '"tags"' env WARBLE_HOME="$work/svhome" "$warble" transcribe --live --source captions.monitor \
        --model sensevoice-small --format json --max-seconds 30 --no-history || result=$?
    if [[ $result == 0 ]] && python3 -c 'import json, sys; l = json.loads(open(sys.argv[1]).readline()); sys.exit(not (l["text"] and "event" in l["tags"]))' "$work/svlive.out"; then
        pass "transcribe --live --model sensevoice-small: a caption $delay s after the end of playback, with its tags: $(head -c 160 "$work/svlive.out")"
    else
        fail "transcribe --live --model sensevoice-small prints a caption: got '$(cat "$work/svlive.out")'; stderr: $(tail -3 "$work/svlive.err")"
    fi
    kill -INT "$live_pid" 2>/dev/null || true
    wait "$live_pid" 2>/dev/null || true
else
    fail "transcribe --live --model sensevoice-small needs Tests/Fixtures/generated/sensevoice (tools/sensevoice/make_fixtures.py; scripts/test.sh makes it)"
fi

# --- the other recognisers (linked by models_with_seed_fixtures): Parakeet TDT (tools/parakeet's synthetic export)
# and Whisper large-v3-turbo (tools/whisper/random_large.py's miniature, converted). Random weights: the words are
# not the speech, and the sound server's resampling and the VAD's cuts make the audio differ from the file, so a
# caption line with text (JSON) is what is checked, not a reference's text.
for model in parakeet-tdt-0.6b-v3 whisper-large-v3-turbo; do
    if [[ ! -e "$work/svhome/models/$model" ]]; then
        fail "transcribe --live --model $model needs its fixture (tools/parakeet/make_fixtures.py, tools/whisper/make_fixtures.py; scripts/test.sh makes them)"
        continue
    fi
    result=0
    listen_and_play "live-$model" '"text"' env WARBLE_HOME="$work/svhome" "$warble" transcribe --live --source captions.monitor \
        --model "$model" --format json --max-seconds 30 --no-history || result=$?
    if [[ $result == 0 ]] && python3 -c 'import json, sys; l = json.loads(open(sys.argv[1]).readline()); sys.exit(not l["text"].strip())' "$work/live-$model.out"; then
        pass "transcribe --live --model $model: a caption $delay s after the end of playback: $(head -c 120 "$work/live-$model.out")"
    else
        fail "transcribe --live --model $model prints a caption: got '$(cat "$work/live-$model.out")'; stderr: $(tail -3 "$work/live-$model.err")"
    fi
    kill -INT "$live_pid" 2>/dev/null || true
    wait "$live_pid" 2>/dev/null || true
done

# --- errors -------------------------------------------------------------------------------------
# expect_error DESCRIPTION PATTERN COMMAND... -> the command fails with PATTERN on standard error.
expect_error() {
    local what="$1" pattern="$2" status=0
    shift 2
    "$@" >"$work/error.out" 2>&1 </dev/null || status=$?
    if [[ $status != 0 ]] && grep -qiE -e "$pattern" "$work/error.out"; then
        pass "$what: exit $status, $(grep -iE -e "$pattern" "$work/error.out" | head -1)"
    else
        fail "$what: exit $status, $(cat "$work/error.out")"
    fi
}
expect_error "no sound server (--live)" "no PulseAudio/PipeWire server answered: .*set PULSE_SERVER" \
    env PULSE_SERVER=unix:/nonexistent "${live[@]}" --max-seconds 1
expect_error "no sound server (--list-sources)" "no PulseAudio/PipeWire server answered" \
    env PULSE_SERVER=unix:/nonexistent "$warble" transcribe --list-sources
expect_error "an unknown source lists the sources" "no sound source named 'nope'.*captions\.monitor" \
    "$warble" transcribe --live --source nope --max-seconds 1
expect_error "--live with a file" "either --live or files" "$warble" transcribe --live "$work/fox.wav"
expect_error "--source without --live" "--source needs --live" "$warble" transcribe --source captions.monitor "$work/fox.wav"
expect_error "translate: --live with a file" "either --live or files" "$warble" translate --live "$work/fox.wav" --to pt
expect_error "translate: no file and no --live" "give an audio file" "$warble" translate --to pt

printf '%s passed, %s failed\n' "$passed" "$failed"
((failed == 0))
