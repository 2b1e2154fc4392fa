# Installed layout, the Debian package and the wheel's contents (issue 19; docs/install.md).
#
#   <prefix>/bin/torchlint                         the CLI (self-contained with TORCHLINT_STATIC=ON)
#   <prefix>/share/torchlint/clang/include/        clang's resource headers (stddef.h, intrinsics)
#   <prefix>/share/torchlint/docs/checks/*.md      --explain, SARIF help
#   <prefix>/share/torchlint/docs/probe/*.json     measured speedups in SARIF/HTML/Markdown reports
#   <prefix>/share/torchlint/stand-ins/            headers for missing third-party libraries
#   <prefix>/share/torchlint/tools/torchlint_trace.py, rules/checks.json, LICENSE
#   <prefix>/share/doc/torchlint/copyright         the licence, where Debian wants it
# core/InstallLayout.h finds all of these relative to the binary, so the tree can be moved
# (the wheel puts it under site-packages/torchlint/data/).
#
# The clang-tidy plugin is not part of it (it needs the host's clang-tidy-${LLVM_VERSION_MAJOR}):
# `cmake --install BUILD --component plugin` installs it alone into <prefix>/lib/.

include(GNUInstallDirs)
# clang's resource directory, as cli/CMakeLists.txt finds it (that variable is its folder's).
execute_process(COMMAND ${TORCHLINT_CLANGXX} -print-resource-dir OUTPUT_VARIABLE _resource_dir
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _resource_dir)
  set(_resource_dir ${LLVM_LIBRARY_DIRS}/clang/${LLVM_VERSION_MAJOR})
endif()
set(_share ${CMAKE_INSTALL_DATADIR}/torchlint)

install(TARGETS torchlint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT torchlint)
install(DIRECTORY ${_resource_dir}/include/ DESTINATION ${_share}/clang/include
        COMPONENT torchlint)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/checks/ DESTINATION ${_share}/docs/checks COMPONENT torchlint
        FILES_MATCHING PATTERN "*.md")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/probe/ DESTINATION ${_share}/docs/probe COMPONENT torchlint
        FILES_MATCHING PATTERN "*.json" PATTERN "*.md")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/stand-ins/ DESTINATION ${_share}/stand-ins COMPONENT torchlint)
install(FILES ${CMAKE_SOURCE_DIR}/tools/torchlint_trace.py DESTINATION ${_share}/tools COMPONENT torchlint)
install(FILES ${CMAKE_SOURCE_DIR}/rules/checks.json DESTINATION ${_share}/rules COMPONENT torchlint)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${_share} COMPONENT torchlint)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/torchlint
        RENAME copyright COMPONENT torchlint)
# Into <prefix>/lib itself (not lib/<triplet>/ nor lib/torchlint/): the plugin finds
# <prefix>/share/torchlint from the folder above its own, as the binary does.
install(TARGETS torchlint-tidy-plugin LIBRARY DESTINATION lib COMPONENT plugin EXCLUDE_FROM_ALL)

# --- Debian package: `cpack -G DEB` in a TORCHLINT_STATIC=ON build (tools/package/build_deb.sh) ---
set(CPACK_PACKAGE_NAME torchlint)
set(CPACK_PACKAGE_VENDOR "torchlint")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "static analyzer for libtorch (PyTorch C++) training code")
set(CPACK_PACKAGE_DESCRIPTION "torchlint finds the performance anti-patterns of C++ training code written against
libtorch (host-device synchronizations in the training step, tensors created on
the CPU then copied, single-process data loading, ...), explains why each is slow
and proposes fix-its. Clang-based; the binary is linked statically against
LLVM/Clang ${LLVM_VERSION_MAJOR} and bundles clang's resource headers. Install
libtorch-dev (or point -I at a libtorch) for the headers of the code it analyses.")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL torchlint)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # torchlint_<version>_amd64.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "torchlint maintainers <torchlint@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/torchlint/torchlint")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libtorch-dev, clang-tidy-${LLVM_VERSION_MAJOR}")
# Depends: what the binary links (dpkg-shlibdeps: libc6 alone for the static build), and the C++
# standard library's headers, which every libtorch source includes and which clang takes from the
# system's GCC installation (libstdc++-12-dev brings /usr/include/c++/12 and
# /usr/lib/gcc/x86_64-linux-gnu/12, by which clang finds it), as Debian's clang-19 package does.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libstdc++-12-dev | libstdc++-dev")
find_program(TORCHLINT_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(TORCHLINT_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
elseif(TORCHLINT_STATIC)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libc6 (>= 2.36)")
endif()
include(CPack)
