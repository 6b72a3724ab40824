# libxpose and what `cmake --install` puts under the prefix: the CLI, the public headers, the
# shared library, the CMake package (find_package(xpose CONFIG) -> xpose::xpose), xpose.pc and
# the man page xpose.1.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Public headers: every <layer>/include/xpose/ (core/, engine/) and the generated config.h.
file(GLOB XPOSE_PUBLIC_INCLUDE_DIRS LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/*/include)
list(FILTER XPOSE_PUBLIC_INCLUDE_DIRS INCLUDE REGEX "/include$")

# One shared library holding the static component libraries whole, so a program or a Python
# module links one file. (Their objects are position independent: CMakeLists.txt.)
set(XPOSE_COMPONENT_LIBRARIES xpose_engine xpose_io xpose_mpi xpose_kernels xpose_core)
add_library(xpose_library SHARED engine/src/version.cpp)
target_link_libraries(xpose_library PRIVATE xpose_options
  "$<LINK_LIBRARY:WHOLE_ARCHIVE,${XPOSE_COMPONENT_LIBRARIES}>")
string(REPLACE ";" "," _xpose_whole "${XPOSE_COMPONENT_LIBRARIES}")
set_target_properties(xpose_library PROPERTIES
  OUTPUT_NAME xpose EXPORT_NAME xpose
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
  # The components also reach the link line through each other's usage requirements.
  LINK_LIBRARY_OVERRIDE "WHOLE_ARCHIVE,${_xpose_whole}")
foreach(dir ${XPOSE_PUBLIC_INCLUDE_DIRS})
  target_include_directories(xpose_library INTERFACE $<BUILD_INTERFACE:${dir}>)
endforeach()
target_include_directories(xpose_library INTERFACE
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# Callers make the communicators (MPI) and, on device plans, the device buffers and streams
# (CUDA). HDF5 stays private: no public header includes hdf5.h, and the loader finds it through
# libxpose's own dependencies.
target_link_libraries(xpose_library PUBLIC MPI::MPI_CXX)
if(XPOSE_HAVE_CUDA)
  target_link_libraries(xpose_library PUBLIC CUDA::cudart)
endif()
add_library(xpose::xpose ALIAS xpose_library)

# Installed binaries find libxpose and the dependencies outside the system's directories.
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(xpose_library PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(xpose PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS xpose RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(TARGETS xpose_library EXPORT xposeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
  NAMELINK_COMPONENT development)
foreach(dir ${XPOSE_PUBLIC_INCLUDE_DIRS})
  install(DIRECTORY ${dir}/xpose DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
    FILES_MATCHING PATTERN "*.h")
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/include/xpose/config.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xpose COMPONENT development)

set(XPOSE_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/xpose CACHE STRING
  "Where the CMake package files go, relative to the prefix")
install(EXPORT xposeTargets NAMESPACE xpose:: DESTINATION ${XPOSE_CMAKE_INSTALL_DIR}
  COMPONENT development)
configure_package_config_file(cmake/xposeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/xposeConfig.cmake INSTALL_DESTINATION ${XPOSE_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/xposeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/xposeConfig.cmake
  ${PROJECT_BINARY_DIR}/package/xposeConfigVersion.cmake
  DESTINATION ${XPOSE_CMAKE_INSTALL_DIR} COMPONENT development)

# pkg-config: the MPI's own C++ .pc where it has one (Open MPI: ompi-cxx, MPICH: mpich), so that
# `pkg-config --cflags --libs xpose` is enough; otherwise compile with mpicxx.
find_package(PkgConfig QUIET)
set(XPOSE_PC_REQUIRES "")
if(PKG_CONFIG_FOUND)
  foreach(candidate ompi-cxx mpi-cxx mpich mpi)
    pkg_check_modules(_xpose_pc_mpi QUIET ${candidate})
    if(_xpose_pc_mpi_FOUND)
      set(XPOSE_PC_REQUIRES ${candidate})
      break()
    endif()
  endforeach()
endif()
set(XPOSE_PC_LIBS_PRIVATE "")
if(XPOSE_HAVE_CUDA)
  set(XPOSE_PC_LIBS_PRIVATE "-L${CUDAToolkit_LIBRARY_DIR} -lcudart")
endif()
# Relocatable: the prefix is found from the .pc file's own place, so `cmake --install --prefix`
# may choose it after configuration.
file(RELATIVE_PATH XPOSE_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" XPOSE_PC_TO_PREFIX "${XPOSE_PC_TO_PREFIX}")
configure_file(cmake/xpose.pc.in ${PROJECT_BINARY_DIR}/package/xpose.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/xpose.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

# The man page, made from `xpose --help` and each command's --help by help2man.
find_program(XPOSE_HELP2MAN help2man)
if(XPOSE_HELP2MAN)
  set(_xpose_man ${PROJECT_BINARY_DIR}/man/xpose.1)
  add_custom_command(OUTPUT ${_xpose_man}
    COMMAND ${CMAKE_COMMAND} -DXPOSE=$<TARGET_FILE:xpose> -DHELP2MAN=${XPOSE_HELP2MAN}
            -DOUTPUT=${_xpose_man} -P ${PROJECT_SOURCE_DIR}/cmake/XposeManPage.cmake
    DEPENDS xpose ${PROJECT_SOURCE_DIR}/cmake/XposeManPage.cmake
    COMMENT "Making the man page xpose.1 from xpose --help" VERBATIM)
  add_custom_target(xpose_man ALL DEPENDS ${_xpose_man})
  install(FILES ${_xpose_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT cli)
else()
  message(STATUS "xpose: help2man not found: no man page (Debian: apt-get install help2man)")
endif()
