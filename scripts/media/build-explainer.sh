#!/usr/bin/env bash
# build-explainer.sh — rebuild the Afterword press explainer video and its captions.
#
# Output (committed static assets, served from the /press page):
#   web/public/press/afterword-explainer.webm   VP9 + Opus, 1280x720, about 50 s
#   web/public/press/afterword-explainer.vtt    WebVTT captions, timed to the narration
#
# What it does: six calm title slides (background #f8f5ef, text #2a2622,
# teal accent #2e6f6a, DejaVu Serif), each held for as long as its sentence of
# espeak-ng narration (plus a short pause), cross-faded to the background colour.
# Caption cues use the measured length of each spoken sentence.
#
# Needs these Debian packages (nothing else, works offline):
#   apt-get update && apt-get install -y ffmpeg espeak-ng fonts-dejavu-core
# (ffmpeg provides ffmpeg/ffprobe with libvpx-vp9, libopus and drawtext.)
#
# Rerun from the repository root (or anywhere):
#   bash scripts/media/build-explainer.sh
# The build is deterministic apart from encoder versions. It is a manual step:
# it is NOT run by `npm start`, `npm test` or any other package script.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT_DIR="$ROOT/web/public/press"
OUT_WEBM="$OUT_DIR/afterword-explainer.webm"
OUT_VTT="$OUT_DIR/afterword-explainer.vtt"

W=1280; H=720; FPS=25
BG='0xf8f5ef'; FG='0x2a2622'; ACCENT='0x2e6f6a'
FONT_SERIF=/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf
FONT_SANS=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
VOICE=(-v en-us -s 150 -p 45)
LEAD=0.8    # silence before each sentence (s)
TAIL=1.2    # silence after each sentence (s)
FADE=0.4    # fade in/out per slide (s)
WRAP=34     # characters per line on a slide

SCRIPT=(
  "Afterword keeps your words safe until the people you love need them."
  "You write messages, record your voice and choose who receives them."
  "You check in on a schedule that suits you: daily, weekly, or longer. We call it a canary."
  "If you stop checking in, you are reminded first. Nothing is released without warning."
  "If the silence continues, your messages are delivered, encrypted, to the people you chose."
  "Afterword. Words for the people you love."
)

for tool in ffmpeg ffprobe espeak-ng fold awk; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y ffmpeg espeak-ng)" >&2; exit 1; }
done
for f in "$FONT_SERIF" "$FONT_SANS"; do
  [[ -f $f ]] || { echo "missing font $f (apt-get install -y fonts-dejavu-core)" >&2; exit 1; }
done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT_DIR"

# Seconds -> WebVTT timestamp (HH:MM:SS.mmm)
vtt_time() { awk -v t="$1" 'BEGIN { ms = int(t * 1000 + 0.5); printf "%02d:%02d:%02d.%03d", int(ms/3600000), int(ms/60000)%60, int(ms/1000)%60, ms%1000 }'; }

N=${#SCRIPT[@]}
START=0
{ echo "WEBVTT"; echo; } > "$WORK/captions.vtt"
: > "$WORK/audio-list.txt"

for i in "${!SCRIPT[@]}"; do
  n=$((i + 1))
  line="${SCRIPT[$i]}"

  # 1. Narration for this slide, padded with calm pauses, 48 kHz mono.
  espeak-ng "${VOICE[@]}" -w "$WORK/raw$n.wav" "$line"
  speech=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$WORK/raw$n.wav")
  dur=$(awk -v s="$speech" -v a="$LEAD" -v b="$TAIL" 'BEGIN { printf "%.3f", s + a + b }')
  ffmpeg -v error -y -i "$WORK/raw$n.wav" \
    -af "aresample=48000,adelay=$(awk -v a="$LEAD" 'BEGIN{print int(a*1000)}'):all=1,apad,atrim=0:$dur" \
    -ac 1 -ar 48000 -c:a pcm_s16le "$WORK/seg$n.wav"
  echo "file 'seg$n.wav'" >> "$WORK/audio-list.txt"

  # 2. Caption cue timed to the spoken sentence.
  cue_start=$(awk -v t="$START" -v a="$LEAD" 'BEGIN { printf "%.3f", t + a }')
  cue_end=$(awk -v t="$cue_start" -v s="$speech" 'BEGIN { printf "%.3f", t + s }')
  { echo "$n"; echo "$(vtt_time "$cue_start") --> $(vtt_time "$cue_end")"; echo "$line"; echo; } >> "$WORK/captions.vtt"

  # 3. Slide: brand label, accent rule, sentence centred line by line, slide counter.
  #    Text goes through files so punctuation needs no escaping.
  mapfile -t lines < <(printf '%s\n' "$line" | fold -s -w "$WRAP" | sed 's/ *$//')
  fs=50; lh=72
  total_h=$(( ${#lines[@]} * lh ))
  y0=$(( (H - total_h) / 2 + 20 ))
  printf 'Afterword' > "$WORK/brand.txt"
  printf '%d / %d' "$n" "$N" > "$WORK/count$n.txt"
  vf="drawbox=x=(iw-120)/2:y=170:w=120:h=4:color=${ACCENT}:t=fill"
  vf+=",drawtext=fontfile=${FONT_SERIF}:textfile=${WORK}/brand.txt:expansion=none:fontsize=30:fontcolor=${ACCENT}:x=(w-text_w)/2:y=110"
  for j in "${!lines[@]}"; do
    printf '%s' "${lines[$j]}" > "$WORK/l$n-$j.txt"
    vf+=",drawtext=fontfile=${FONT_SERIF}:textfile=${WORK}/l$n-$j.txt:expansion=none:fontsize=${fs}:fontcolor=${FG}:x=(w-text_w)/2:y=$(( y0 + j * lh ))"
  done
  vf+=",drawtext=fontfile=${FONT_SANS}:textfile=${WORK}/count$n.txt:expansion=none:fontsize=22:fontcolor=${ACCENT}:x=(w-text_w)/2:y=h-80"
  ffmpeg -v error -y -f lavfi -i "color=c=${BG}:s=${W}x${H}" -vf "$vf" -frames:v 1 "$WORK/slide$n.png"

  # 4. Video segment for this slide, the same length as its audio, fading from/to the background.
  fo=$(awk -v d="$dur" -v f="$FADE" 'BEGIN { printf "%.3f", d - f }')
  ffmpeg -v error -y -loop 1 -framerate "$FPS" -i "$WORK/slide$n.png" -t "$dur" \
    -vf "fade=t=in:st=0:d=${FADE}:color=${BG},fade=t=out:st=${fo}:d=${FADE}:color=${BG},format=yuv420p" \
    -c:v ffv1 "$WORK/seg$n.mkv"
  echo "file 'seg$n.mkv'" >> "$WORK/video-list.txt"

  START=$(awk -v t="$START" -v d="$dur" 'BEGIN { printf "%.3f", t + d }')
done

# 5. Join and encode: VP9 (still images compress to almost nothing) + Opus voice.
ffmpeg -v error -y -f concat -safe 0 -i "$WORK/audio-list.txt" -c copy "$WORK/narration.wav"
ffmpeg -v error -y -f concat -safe 0 -i "$WORK/video-list.txt" -c copy "$WORK/slides.mkv"
ffmpeg -v error -y -i "$WORK/slides.mkv" -i "$WORK/narration.wav" \
  -map 0:v:0 -map 1:a:0 \
  -c:v libvpx-vp9 -b:v 0 -crf 36 -row-mt 1 -deadline good -cpu-used 2 -g 125 -pix_fmt yuv420p \
  -c:a libopus -b:a 40k -ac 1 -application voip \
  -metadata title="Afterword explainer" -metadata language=eng \
  -shortest "$WORK/out.webm"

mv "$WORK/out.webm" "$OUT_WEBM"
cp "$WORK/captions.vtt" "$OUT_VTT"

echo "wrote $OUT_WEBM ($(stat -c %s "$OUT_WEBM") bytes)"
echo "wrote $OUT_VTT"
ffprobe -v error -show_entries format=duration:stream=codec_name,width,height,sample_rate -of default=nw=1 "$OUT_WEBM"
