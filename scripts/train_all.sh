#!/usr/bin/env bash
# The background training driver of issue 10: one training process at a time, niced, each chunk
# resuming from the last checkpoint. First Mini-Gam (validated against the exact table), then
# Mexican and standard in turns, for ever (stop it with: kill -- -PID, PID in artifacts/train/driver.pid).
#
#   nohup bash scripts/train_all.sh > artifacts/train/driver.log 2>&1 &
#
# Nets and logs go to artifacts/train/ (NET_DIR, LOG_DIR); copy a net to backgammon_lab/data/nets/
# to ship it. Mini-Gam chunks: MINIGAM_STEPS ("ALPHA:MINUTES ...", "" skips Mini-Gam); the others: CHUNK_MINUTES (30), or MEXICAN_MINUTES
# and STANDARD_MINUTES each; MEXICAN_ALPHA and STANDARD_ALPHA set a learning rate (default: the checkpoint's);
# FIRST=standard starts the turns with standard; ORDER="mexican" trains only Mexican; ENCODING=td24x grows the
# nets to that encoding (train --encoding); AVERAGE=G keeps a moving average of the weights (train --average).
# Two drivers at once need their own NET_DIR.
set -u
# run from a copy, so that editing this file does not disturb a running driver
NET_DIR=${NET_DIR:-artifacts/train}
LOG_DIR=${LOG_DIR:-$NET_DIR}
if [ -z "${TRAIN_ALL_ROOT:-}" ]; then
  TRAIN_ALL_ROOT=$(cd "$(dirname "$0")/.." && pwd)
  mkdir -p "$TRAIN_ALL_ROOT/$LOG_DIR"
  cp "$0" "$TRAIN_ALL_ROOT/$LOG_DIR/train_all.running.sh"
  TRAIN_ALL_ROOT=$TRAIN_ALL_ROOT exec bash "$TRAIN_ALL_ROOT/$LOG_DIR/train_all.running.sh" "$@"
fi
cd "$TRAIN_ALL_ROOT"
PY=${PYTHON:-.venv/bin/python}
CHUNK_MINUTES=${CHUNK_MINUTES:-30}
mkdir -p "$NET_DIR" "$LOG_DIR"
echo $$ > "$LOG_DIR/driver.pid"
# one BLAS thread: the matrices are small and the other core belongs to other work
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

chunk() {  # chunk VARIANT MINUTES [extra train options...]; a failed start (the tree being edited) is retried
  local v=$1 m=$2; shift 2
  local out="$NET_DIR/$v.npz" resume=() t0 rc
  for attempt in 1 2 3 4 5; do
    resume=()
    [ -f "$out" ] && resume=(--resume)
    echo "$(date -u +%FT%TZ) start $v for $m min ${resume[*]} $*" >> "$LOG_DIR/$v.log"
    t0=$(date +%s)
    nice -n 10 "$PY" -m backgammon_lab train "$v" --games 100000000 --minutes "$m" --checkpoint 500 \
        --out "$out" --no-progress "${resume[@]}" ${AVERAGE:+--average "$AVERAGE"} "$@" >> "$LOG_DIR/$v.log" 2>&1
    rc=$?
    echo "$(date -u +%FT%TZ) end $v rc=$rc" >> "$LOG_DIR/$v.log"
    [ "$rc" = 0 ] && return 0
    [ $(( $(date +%s) - t0 )) -gt 120 ] && return 1
    sleep 60
  done
}

# Mini-Gam: a falling learning rate, ALPHA:MINUTES per chunk
for step in ${MINIGAM_STEPS-0.05:10 0.02:10 0.005:10}; do
  chunk minigam "${step#*:}" --hidden "${MINIGAM_HIDDEN:-128}" --alpha "${step%%:*}"
done
# then the two 24-point games in turns (FIRST=standard starts with standard; ORDER="standard" trains
# only standard)
order=(mexican standard)
[ "${FIRST:-mexican}" = standard ] && order=(standard mexican)
[ -n "${ORDER:-}" ] && read -r -a order <<< "$ORDER"
while true; do
  for v in "${order[@]}"; do
    minutes=${v^^}_MINUTES alpha=${v^^}_ALPHA  # MEXICAN_MINUTES, STANDARD_ALPHA, ...
    chunk "$v" "${!minutes:-$CHUNK_MINUTES}" ${!alpha:+--alpha "${!alpha}"} ${ENCODING:+--encoding "$ENCODING"}
  done
done
