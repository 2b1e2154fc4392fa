# Helpers for the scripts that read the probe's JSON counts (CheckCounts.cmake,
# tools/ProbeCountsDocs.cmake); include()d by them.

# json_indices(OUT JSON_TEXT PATH...): the list 0;1;...;n-1 of the array at PATH, empty when
# the array is empty or missing.
function(json_indices out json)
  string(JSON _n ERROR_VARIABLE _e LENGTH "${json}" ${ARGN})
  set(_list "")
  if(NOT _e AND _n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(i RANGE ${_last})
      list(APPEND _list ${i})
    endforeach()
  endif()
  set(${out} "${_list}" PARENT_SCOPE)
endfunction()

# milli(OUT VALUE): a count per step as the JSON prints it ("1", "0.333333") in thousandths
# (CMake's math is integer only); MISSING stays MISSING.
function(milli out value)
  if(value STREQUAL "MISSING")
    set(${out} MISSING PARENT_SCOPE)
    return()
  endif()
  string(REGEX MATCH "^([0-9]+)(\\.([0-9]*))?" _m "${value}")
  set(_int ${CMAKE_MATCH_1})
  string(SUBSTRING "${CMAKE_MATCH_3}000" 0 3 _frac)
  math(EXPR _v "${_int} * 1000 + 1${_frac} - 1000")
  set(${out} ${_v} PARENT_SCOPE)
endfunction()
