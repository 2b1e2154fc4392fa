# The header-only stand-in for Google Benchmark (include/benchmark/benchmark.h: why).
if(NOT TARGET benchmark::benchmark)
  add_library(benchmark::benchmark INTERFACE IMPORTED)
  set_target_properties(benchmark::benchmark PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${CMAKE_CURRENT_LIST_DIR}/include)
endif()
set(benchmark_FOUND TRUE)
