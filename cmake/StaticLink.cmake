# TORCHLINT_STATIC=ON (issue 19): link the torchlint CLI against LLVM/Clang's static libraries
# (Debian's llvm-19-dev and libclang-19-dev ship every libLLVM*.a and libclang*.a) instead of the
# shared libclang-cpp and libLLVM, and libstdc++/libgcc statically, so that the binary runs on a
# Debian 12 (glibc 2.36) or newer system with nothing of LLVM installed. Debian's exported CMake
# targets for these archives link libLLVM.so and libclang-cpp.so (LLVM_LINK_LLVM_DYLIB), so the
# archives are linked by path, as one group: the linker takes only the members torchlint needs.
#
# What stays dynamic: glibc (libc, libm) only, when zlib1g-dev and libzstd-dev provide libz.a and
# libzstd.a (tools/setup.sh installs both); else the shared libz/libzstd. The Z3 solver that
# LLVMSupport's export names (libz3.so) is never called by torchlint: cli/NoZ3.cpp answers
# llvm::CreateZ3Solver() so that the archive member that needs libz3 is not linked.
# tools/package/check_binary.sh lists what the result needs (ldd, objdump -T).

function(torchlint_link_static target)
  file(GLOB _clang ${LLVM_LIBRARY_DIRS}/libclang[A-Z]*.a)
  file(GLOB _llvm ${LLVM_LIBRARY_DIRS}/libLLVM[A-Z]*.a)
  # clang-tidy's own check modules and main are not torchlint's; leaving them out keeps the
  # group small (the linker would not take their members anyway).
  list(FILTER _clang EXCLUDE REGEX "libclangTidy.+Module\\.a$|libclangTidyMain\\.a$|libclangTidyPlugin\\.a$")
  if(NOT _clang OR NOT _llvm)
    message(FATAL_ERROR "TORCHLINT_STATIC: no static LLVM/Clang libraries in ${LLVM_LIBRARY_DIRS} "
                        "(install llvm-${LLVM_VERSION_MAJOR}-dev and libclang-${LLVM_VERSION_MAJOR}-dev)")
  endif()
  # zlib and zstd (LLVMSupport's compression) statically too when their archives are installed
  # (zlib1g-dev, libzstd-dev): then the binary needs nothing but glibc.
  find_library(TORCHLINT_ZLIB_LIB NAMES libz.a z REQUIRED)
  find_library(TORCHLINT_ZSTD_LIB NAMES libzstd.a zstd REQUIRED)
  set(_z ${TORCHLINT_ZLIB_LIB} ${TORCHLINT_ZSTD_LIB})
  target_sources(${target} PRIVATE ${CMAKE_SOURCE_DIR}/cli/NoZ3.cpp)
  target_link_libraries(${target} PRIVATE
    -Wl,--start-group ${_clang} ${_llvm} -Wl,--end-group
    ${_z} Threads::Threads ${CMAKE_DL_LIBS} rt m
    -static-libstdc++ -static-libgcc)
  # Smaller and reproducible: no debug information in a release package.
  target_link_options(${target} PRIVATE -Wl,--gc-sections -Wl,--as-needed $<$<CONFIG:Release>:-s>)
  # lld links the ~300 archives in a fraction of GNU ld's time and memory.
  find_program(TORCHLINT_LLD NAMES ld.lld ld.lld-${LLVM_VERSION_MAJOR})
  if(TORCHLINT_LLD)
    target_link_options(${target} PRIVATE -fuse-ld=lld)
  endif()
endfunction()
