#!/usr/bin/env bash
# Integration test of sd_warble, Warble's speech-dispatcher output module, with the real
# speech-dispatcher from Debian: a private PulseAudio whose null sink is recorded, a private
# speech-dispatcher configured with the warble module, driven by spd-say and python3-speechd.
#
# Checks: speech is produced (captured and measured), index marks arrive in order and as playback
# reaches them, STOP silences within 100 ms, `spd-say -o warble -L` lists the voices, an unknown voice
# falls back (log line), and `warble speechd install|uninstall` makes `spd-say -o warble` work for a
# user and then not. Prints the medians of SPEAK→first audio, CHAR→audio and STOP→silence.
#
#   scripts/test-speechd.sh              # the test build (lib.sh's test_build, shared with scripts/test.sh)
#   scripts/test-speechd.sh --release    # a plain release build in .build, for the figures
# Environment: SPEECHD_RUNS (repetitions per figure, default 5), KEEP=1 keeps the work directory,
# WARBLE_NO_BUILD=1 uses the test build's programs as they are.
# Needs the models (scripts/setup.sh). Installs its apt packages when missing. Last line:
# "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$warble_root"

release=0
[[ "${1:-}" == "--release" ]] && release=1
runs="${SPEECHD_RUNS:-5}"

# --- packages -----------------------------------------------------------------------------------
packages=(speech-dispatcher python3-speechd pulseaudio pulseaudio-utils sox)
install_debian_packages "${packages[@]}"
[[ -d "$WARBLE_HOME/models" ]] || die "no models in $WARBLE_HOME/models: run scripts/setup.sh first"

# --- build --------------------------------------------------------------------------------------
if [[ $release == 1 ]]; then
    say "building sd_warble and warble (release)"  # the build's own output only on failure
    swift build -c release --product sd_warble >/dev/null || die "building sd_warble failed"
    swift build -c release --product warble >/dev/null || die "building warble failed"
    bin="$(swift build -c release --show-bin-path)"
else
    bin="$(test_bin)"  # the test build's programs (built when missing)
fi
sd_warble="$bin/sd_warble"
warble="$bin/warble"

# --- a private world ----------------------------------------------------------------------------
work="$(mktemp -d /tmp/warble-speechd.XXXXXX)"
pids=()
cleanup() {
    # No errexit here: a pid file can vanish while its daemon exits, and every process must still go.
    set +e
    local pid pidfile
    for pidfile in "$work"/run/speech-dispatcher/pid/*.pid "$work/speechd.pid"; do
        pid="$(cat "$pidfile" 2>/dev/null)" && [[ -n "$pid" ]] && pids+=("$pid")
    done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in {1..30}; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [[ "${KEEP:-0}" == 1 ]]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

mkdir -p "$work"/{home,run,conf/modules,log}
chmod 700 "$work/run"
export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/home/.config"
export XDG_DATA_HOME="$work/home/.local/share" XDG_CACHE_HOME="$work/home/.cache"
export PULSE_SERVER="unix:$work/run/native"
unset SPEECHD_ADDRESS DISPLAY DBUS_SESSION_BUS_ADDRESS

passed=0
failed=0
pass() { printf 'PASS %s\n' "$*"; passed=$((passed + 1)); }
fail() { printf 'FAIL %s\n' "$*"; failed=$((failed + 1)); }

start_pulseaudio "$work" "module-null-sink sink_name=cap rate=22050 channels=1" module-always-sink

parec -d cap.monitor --format=s16le --rate=22050 --channels=1 --latency-msec=10 >"$work/capture.raw" 2>"$work/log/parec.log" &
pids+=($!)

say "starting speech-dispatcher with the warble module"
socket="$work/run/speechd.sock"
cat >"$work/conf/speechd.conf" <<CONF
CommunicationMethod "unix_socket"
SocketPath "$socket"
LogDir "$work/log"
LogLevel ${SPEECHD_LOGLEVEL:-4}
AudioOutputMethod "pulse"
AddModule "warble" "$sd_warble" "warble.conf"
DefaultModule warble
CONF
# The module's WARBLE_HOME: the installed models with the seed families' synthetic graphs beside them, and
# a voice library of its own (cloned voices are added to it while the module runs).
module_home="$work/home"
mkdir -p "$module_home"
models_with_seed_fixtures "$module_home/models"
[[ -d "$WARBLE_HOME/lib" ]] && ln -s "$WARBLE_HOME/lib" "$module_home/lib"
printf 'WarbleDefaultVoice "en_US-joe-medium"\nWarbleHome "%s"\n' "$module_home" >"$work/conf/modules/warble.conf"
speech-dispatcher -s -t 0 -C "$work/conf" -P "$work/speechd.pid" >>"$work/log/speechd.stderr" 2>&1 &
pids+=($!)
for _ in {1..100}; do [[ -S "$socket" ]] && break; sleep 0.1; done
[[ -S "$socket" ]] || die "speech-dispatcher did not start (see $work/log; KEEP=1 keeps it)"
export SPEECHD_ADDRESS="unix_socket:$socket"

position() { echo $(($(stat -c %s "$work/capture.raw") / 2)); }
# Seconds of sound in the capture from sample $1 on.
sound_seconds() {
    /usr/bin/python3 - "$work/capture.raw" "$1" <<'PY'
import array, sys
a = array.array("h")
with open(sys.argv[1], "rb") as f:
    f.seek(int(sys.argv[2]) * 2)
    data = f.read()
a.frombytes(data[: len(data) // 2 * 2])
print(f"{sum(1 for v in a if abs(v) > 64) / 22050:.2f}")
PY
}

# --- spd-say ------------------------------------------------------------------------------------
voices="$(timeout 30 spd-say -o warble -L 2>&1 || true)"
if grep -q "en_US-joe-medium" <<<"$voices"; then
    pass "spd-say -o warble -L lists the voices ($(grep -c -- '-' <<<"$voices") listed)"
else
    fail "spd-say -o warble -L lists the voices: got: $voices"
fi

start="$(position)"
timeout 60 spd-say -w -o warble "Hello from Warble. This is the speech dispatcher module speaking." \
    || fail "spd-say -w returned an error"
sleep 0.3
seconds="$(sound_seconds "$start")"
if awk -v s="$seconds" 'BEGIN { exit !(s > 1.5 && s < 10) }'; then
    pass "spd-say speech produced: $seconds s of sound captured from the null sink"
else
    fail "spd-say speech produced: $seconds s of sound (expected 1.5 to 10)"
fi

# --- a cloned voice, added while the module runs: listed, and it speaks -------------------------------
"$warble" say -q "Last summer we drove along the coast, stopping at every little village to buy bread." -o "$work/clip.wav"
if WARBLE_HOME="$module_home" "$warble" voice add sd-clone --from "$work/clip.wav" --model kokoro --candidates 1 --keep-stock \
        --consent "synthetic test voice" --no-check >"$work/clone.out" 2>&1; then
    listed="$(timeout 30 spd-say -o warble -L 2>&1 || true)"
    if grep -q "sd-clone" <<<"$listed"; then
        pass "a voice cloned while the module runs is listed by spd-say -L (no restart)"
    else
        fail "a voice cloned while the module runs is listed by spd-say -L: got: $listed"
    fi
    start="$(position)"
    timeout 60 spd-say -w -o warble -y sd-clone "A cloned voice, speaking for the whole desktop." || fail "spd-say -y sd-clone returned an error"
    sleep 0.3
    seconds="$(sound_seconds "$start")"
    if awk -v s="$seconds" 'BEGIN { exit !(s > 1.5 && s < 10) }' && ! grep -q "unknown voice 'sd-clone'" "$work/log/warble.log"; then
        pass "spd-say -y sd-clone speaks with the cloned voice: $seconds s of sound"
    else
        fail "spd-say -y sd-clone speaks with the cloned voice: $seconds s of sound; log: $(grep -i clone "$work/log/warble.log" | tail -2)"
    fi
else
    fail "warble voice add for the module: $(tail -3 "$work/clone.out")"
fi

# --- a CosyVoice 3 voice (the seed app's four files; synthetic graphs), imported while the module runs
if WARBLE_HOME="$module_home" "$warble" voice import "$warble_root/Tests/Fixtures/generated/cosyvoice3/seedapp" --name sd-cosy \
        >"$work/cosy.out" 2>&1; then
    start="$(position)"
    timeout 60 spd-say -w -o warble -y sd-cosy "Good morning! How are you doing today?" || fail "spd-say -y sd-cosy returned an error"
    sleep 0.3
    seconds="$(sound_seconds "$start")"
    if awk -v s="$seconds" 'BEGIN { exit !(s > 0.2 && s < 30) }' && ! grep -q "sd-cosy" <(grep -i "error\|unknown" "$work/log/warble.log"); then
        pass "spd-say -y sd-cosy speaks with a CosyVoice 3 voice: $seconds s of sound"
    else
        fail "spd-say -y sd-cosy speaks with a CosyVoice 3 voice: $seconds s of sound; log: $(grep -i "cosy\|error" "$work/log/warble.log" | tail -3)"
    fi
else
    fail "warble voice import of a CosyVoice 3 voice for the module: $(tail -3 "$work/cosy.out")"
fi

# speaks_with VOICE DESCRIPTION -> passes when spd-say with library voice VOICE puts 0.1–30 s of sound
# into the null sink.
speaks_with() {
    local start seconds
    start="$(position)"
    timeout 60 spd-say -w -o warble -y "$1" "Good morning to you all." || fail "spd-say -y $1 returned an error"
    sleep 0.3
    seconds="$(sound_seconds "$start")"
    if awk -v s="$seconds" 'BEGIN { exit !(s > 0.1 && s < 30) }'; then
        pass "spd-say -y $1 speaks with $2: $seconds s of sound"
    else
        fail "spd-say -y $1 speaks with $2: $seconds s of sound; log: $(grep -i "$1\|error" "$work/log/warble.log" | tail -3)"
    fi
}

# --- a Chatterbox Turbo voice (synthetic graphs), cloned from a clip while the module runs ----------
"$warble" say -q "Last summer we drove along the coast, stopping at every little village to buy fresh bread and cheese." \
    -o "$work/box-clip.wav"
if WARBLE_HOME="$module_home" "$warble" voice add sd-box --model chatterbox --from "$work/box-clip.wav" --no-check \
        --consent "synthetic test voice" >"$work/box.out" 2>&1; then
    speaks_with sd-box "a Chatterbox Turbo voice"
else
    fail "warble voice add of a Chatterbox Turbo voice for the module: $(tail -3 "$work/box.out")"
fi

# --- a NeuTTS voice (synthetic graphs), added from its reference codes while the module runs -------
neu="$warble_root/Tests/Fixtures/generated/neutts/voice"
if WARBLE_HOME="$module_home" "$warble" voice add sd-neu --codes "$neu/ref_codes.npy" --transcript "$(cat "$neu/ref.txt")" \
        >"$work/neu.out" 2>&1; then
    speaks_with sd-neu "a NeuTTS voice"
else
    fail "warble voice add --codes of a NeuTTS voice for the module: $(tail -3 "$work/neu.out")"
fi

# --- python3-speechd: marks, latencies, STOP, unknown voice ---------------------------------------
set +e
/usr/bin/python3 tools/speechd/drive.py --address "$SPEECHD_ADDRESS" --capture "$work/capture.raw" --runs "$runs" \
    | tee "$work/driver.out"
set -e
passed=$((passed + $(grep -c '^PASS' "$work/driver.out" || true)))
failed=$((failed + $(grep -c '^FAIL' "$work/driver.out" || true)))
grep -q '^driver:' "$work/driver.out" || fail "the python3-speechd driver did not finish (see above)"

if grep -q "unknown voice 'no-such-voice'; falling back to 'en_US-joe-medium'" "$work/log/warble.log"; then
    pass "unknown voice falls back: $(grep -o "unknown voice 'no-such-voice'.*" "$work/log/warble.log" | head -1)"
else
    fail "unknown voice falls back: no log line in $work/log/warble.log"
fi

kill "$(cat "$work/speechd.pid" 2>/dev/null || echo 0)" 2>/dev/null || true
sleep 0.5

# --- warble speechd install / uninstall, with speech-dispatcher's own defaults --------------------
unset SPEECHD_ADDRESS
"$warble" speechd install >"$work/install.out" 2>&1 || fail "warble speechd install failed: $(cat "$work/install.out")"
start="$(position)"
# spd-say autospawns the user's speech-dispatcher and connects at once; on a busy machine the socket may
# not be listening yet ("Connection refused. Autospawn: Server successfully autospawned"), and spd-say
# does not retry. Then wait for the socket and ask again, once.
say_installed() { timeout 60 spd-say -w -o warble "Installed for this user." >"$work/spd-say.out" 2>&1; }
said=0
say_installed || said=$?
if ((said)) && grep -q "successfully autospawned" "$work/spd-say.out"; then
    for _ in $(seq 1 50); do [[ -S "$work/run/speech-dispatcher/speechd.sock" ]] && break; sleep 0.1; done
    start="$(position)"
    said=0
    say_installed || said=$?
fi
if ((said == 0)); then
    seconds="$(sound_seconds "$start")"
    # speech-dispatcher falls back to another module (sd_dummy plays a long recording) when it has
    # no "warble": the module's own log shows that it was warble that spoke.
    if awk -v s="$seconds" 'BEGIN { exit !(s > 0.5 && s < 5) }' \
        && grep -q "sd_warble" "$work/run/speech-dispatcher/log/warble.log" 2>/dev/null; then
        pass "after warble speechd install, spd-say -o warble speaks ($seconds s of sound, module log in place)"
    else
        fail "after warble speechd install, spd-say -o warble speaks: $seconds s of sound, module log: $(ls "$work/run/speech-dispatcher/log/" 2>&1)"
    fi
else
    fail "after warble speechd install, spd-say -o warble: $(cat "$work/spd-say.out")"
fi
user_pid="$work/run/speech-dispatcher/pid/speech-dispatcher.pid"
if [[ -f "$user_pid" ]]; then kill "$(cat "$user_pid")" 2>/dev/null || true; fi
sleep 0.5
"$warble" speechd uninstall >"$work/uninstall.out" 2>&1 || fail "warble speechd uninstall failed: $(cat "$work/uninstall.out")"
listed="$(timeout 30 spd-say -o warble -L 2>&1 || true)"
if [[ ! -e "$HOME/.local/libexec/speech-dispatcher-modules/sd_warble" && ! -e "$XDG_CONFIG_HOME/speech-dispatcher/modules/warble.conf" ]] \
    && ! grep -q "en_US-joe-medium" <<<"$listed"; then
    pass "after warble speechd uninstall, speech-dispatcher no longer offers warble"
else
    fail "after warble speechd uninstall, speech-dispatcher no longer offers warble: $listed"
fi
if [[ -f "$user_pid" ]]; then kill "$(cat "$user_pid")" 2>/dev/null || true; fi

printf '%s passed, %s failed\n' "$passed" "$failed"
((failed == 0))
