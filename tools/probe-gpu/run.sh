#!/bin/bash
# Builds runtime_probe/ standalone against the torch wheel's libtorch (CUDA) on a GPU machine without
# LLVM, and runs the cases and seeds on the GPU in groups (a crash or the time limit loses one group,
# not all; each group also leaves <json>.partial after every case). docs/probe/README.md, "CUDA run".
#   sh tools/probe-gpu/gen_fixits.sh            # where torchlint is built: the fix-it cases' afters
#   OUT=/tmp/out bash tools/probe-gpu/run.sh    # on the GPU machine, from the repository root
# Env: GROUPS_ ("name:glob ..."), PROBE_ARGS (e.g. "--reps 10"), LIMIT (seconds for the runs),
# FIXITS (the afters, default build-gpu-fixit/), BENCH=<dir> (a benchmarkConfig.cmake; default the
# stand-in, shim/), GDB_DONE=1 (no cuda-gdb backtrace of a crashed group), BUILD (the build folder),
# PROBE_CXX (the compiler; default: the system's g++ where there is one: a compiler of its own that
# links its own libstdc++ statically, like the device image's /opt/gcc, gives the probe a second
# copy of std::locale beside the one libtorch uses, and libtorch's string streams crash in free()).
R=$PWD; C=$R/tools/probe-gpu; B=${BUILD:-$R/build-gpu}; RES=${RES:-/tmp/probe-res}; LIMIT=${LIMIT:-570}
export FIXITS=${FIXITS:-$R/build-gpu-fixit}
mkdir -p $RES $OUT
export PATH=$PATH:/usr/local/cuda/bin
echo "== machine"; date -u; nvidia-smi; nvcc --version | tail -2; cmake --version | head -1; c++ --version | head -1
cat /etc/os-release | head -2; nproc
TP=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')
python3 -c 'import torch;print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available(), torch.cuda.get_device_name(0))'
chmod +x $C/fake-torchlint.sh
PROBE_CXX=${PROBE_CXX:-$(ls /usr/bin/g++ 2>/dev/null)}
CXX_ARG=${PROBE_CXX:+-DCMAKE_CXX_COMPILER=$PROBE_CXX}
echo "== configure ($SECONDS s) with ${PROBE_CXX:-the default compiler}"
if [ ! -f $B/build.ninja ]; then
  cmake -S $C -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DREPO=$R -DCARRY=$C \
    ${CXX_ARG} "-DCMAKE_PREFIX_PATH=$TP" -Dbenchmark_DIR=${BENCH:-$C/shim} -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined \
    > $RES/configure.log 2>&1; rc=$?
  grep -E "torchlint probe|CUDA|cuDNN|Warning|Error|error" $RES/configure.log | head -40
  [ $rc = 0 ] || { tail -60 $RES/configure.log; tar -C $RES -cf $OUT/results.tar .; exit 1; }
fi
echo "== build ($SECONDS s)"
ninja -C $B -j16 torchlint-probe > $RES/build.log 2>&1; rc=$?
tail -5 $RES/build.log
[ $rc = 0 ] || { grep -B2 -A12 -m3 "error" $RES/build.log | head -80; tar -C $RES -cf $OUT/results.tar .; exit 1; }
P=$B/bin/torchlint-probe
ldd $P | grep -E "torch|c10|cuda|bench" 
$P --list > $RES/list.txt; cat $RES/list.txt
echo "== run ($SECONDS s)"
GROUPS_=${GROUPS_:-"sync:torch-sync-* a-d:torch-[a-d]* e-z:torch-[e-r]*,torch-[t-z]* seeds:seg-loss,cnn-training"}
set -f
for g in $GROUPS_; do
  name=${g%%:*}; glob=${g#*:}
  left=$((LIMIT - SECONDS)); [ $left -gt 20 ] || { echo "== $name: no time left"; continue; }
  echo "== group $name ($glob), $left s left, at $SECONDS s"
  timeout -s INT $left $P --device cuda --cases "$glob" $PROBE_ARGS --json $RES/cuda-$name.json > $RES/run-$name.log 2>&1
  rc=$?; echo "== group $name: rc=$rc at $SECONDS s"
  if [ $rc -ge 128 ] && [ $rc != 130 ] && [ -z "$GDB_DONE" ] && [ $((LIMIT - SECONDS)) -gt 90 ]; then
    GDB_DONE=1; echo "== cuda-gdb backtrace of group $name (--quick)"
    timeout 80 cuda-gdb -batch -ex run -ex bt --args $P --device cuda --quick --cases "$glob" --json /tmp/gdb.json > $RES/gdb-$name.log 2>&1
    grep -E "^#[0-9]+" $RES/gdb-$name.log | head -25
  fi; grep -vE "^\s*$" $RES/run-$name.log | grep -iE "equivalen|error|fail|speedup|warn|terminate|what\(\)" | head -20
  tail -3 $RES/run-$name.log
  tar -C $RES -cf $OUT/results.tar .
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
tar -C $RES -cf $OUT/results.tar .
echo "== done at $SECONDS s"
