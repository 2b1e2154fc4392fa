cmake_policy(VERSION 3.20)
# Runs CMD (a |-separated command line) and fails unless it exits with EXPECT; prints its output.
#   cmake -DEXPECT=1 "-DCMD=torchlint|file.cpp|--|-std=c++17" -P ExpectExit.cmake
string(REPLACE "|" ";" _cmd "${CMD}")
execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT "${_rc}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "exit code ${_rc}, expected ${EXPECT}: ${CMD}")
endif()
