#!/usr/bin/env bash
# Fuzzes WarbleText's SSML parser (and the PLS lexicon reader) with libFuzzer + AddressSanitizer for a
# bounded number of runs.
#   scripts/fuzz-ssml.sh [RUNS]        (default 1000000; exits non-zero on any crash)
# Builds the fuzz-ssml target of the separate package in Fuzz/ into .build-text-fuzz, writes a seed corpus
# and an SSML token dictionary there, and keeps crash reproducers in .build-text-fuzz/artifacts.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs="${1:-1000000}"
scratch="$warble_root/.build-text-fuzz"
corpus="$scratch/corpus"
artifacts="$scratch/artifacts"
mkdir -p "$corpus" "$artifacts"

say "building the SSML fuzz target (-sanitize=fuzzer,address)"
swift build --package-path "$warble_root/Fuzz" --scratch-path "$scratch" -c debug \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -O -Xswiftc -use-ld=lld --product fuzz-ssml >&2
binary="$(swift build --package-path "$warble_root/Fuzz" --scratch-path "$scratch" -c debug --show-bin-path)/fuzz-ssml"

say "writing the seed corpus and dictionary"
seeds=(
    'Plain text, no markup at all.'
    '<speak>Hello <break time="300ms"/> world.</speak>'
    '<?xml version="1.0"?><speak version="1.1" xml:lang="en-US"><p><s>One.</s><s>Two!</s></p></speak>'
    '<speak><prosody rate="+20%" pitch="-2st" volume="loud">fast</prosody><prosody rate="x-slow">slow</prosody></speak>'
    '<speak><say-as interpret-as="date" format="mdy">3/14/2025</say-as><say-as interpret-as="telephone">555-1234</say-as></speak>'
    '<speak><sub alias="World Wide Web">WWW</sub><phoneme alphabet="ipa" ph="t&#x259;m&#x251;to">tomato</phoneme></speak>'
    '<speak><voice name="joe"><lang xml:lang="fr">bonjour</lang></voice><mark name="m1"/><emphasis level="strong">now</emphasis></speak>'
    '<speak>A &amp; B &lt; C <![CDATA[<raw> & text]]><!-- comment --></speak>'
    '<!DOCTYPE speak [<!ENTITY x SYSTEM "file:///etc/passwd">]><speak>&x;</speak>'
    '<lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>'
)
for k in "${!seeds[@]}"; do printf '%s' "${seeds[$k]}" > "$corpus/seed-$k.ssml"; done
cat > "$scratch/ssml.dict" <<'DICT'
"<speak>"
"</speak>"
"<break"
"time=\""
"ms\""
"strength=\""
"<prosody"
"rate=\""
"pitch=\""
"volume=\""
"%\""
"st\""
"dB\""
"Hz\""
"</prosody>"
"<say-as interpret-as=\""
"</say-as>"
"<sub alias=\""
"<phoneme alphabet=\"ipa\" ph=\""
"<voice name=\""
"<lang xml:lang=\""
"<mark name=\""
"<emphasis level=\""
"<p>"
"<s>"
"/>"
"&amp;"
"&#x"
"<![CDATA["
"]]>"
"<!--"
"-->"
"<?xml"
"<!DOCTYPE"
"<lexeme>"
"<grapheme>"
"<phoneme>"
"<alias>"
DICT

say "fuzzing for $runs runs"
cd "$artifacts"
"$binary" -runs="$runs" -max_len=2048 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="$scratch/ssml.dict" -artifact_prefix="$artifacts/" "$corpus" >&2
say "no crash in $runs runs"
