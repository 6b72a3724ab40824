# Test helpers. GoogleTest comes from the system (Debian: libgtest-dev).
find_package(GTest REQUIRED)
include(GoogleTest)

# Open MPI refuses to start more ranks than cores unless told, and refuses root unless told.
set(XPOSE_MPIEXEC_PREFLAGS "" CACHE STRING "Extra flags for mpiexec in tests")
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _xpose_mpiexec_version ERROR_QUIET)
if(_xpose_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(XPOSE_MPIEXEC_OVERSUBSCRIBE --oversubscribe)
else()
  set(XPOSE_MPIEXEC_OVERSUBSCRIBE "")
endif()

# xpose_add_mpi_test(NAME <name> NP <n> COMMAND <exe> [ARGS ...] [LABELS ...] [TIMEOUT s])
# Runs the command under mpiexec in FindMPI's order:
#   MPIEXEC_EXECUTABLE MPIEXEC_NUMPROC_FLAG N MPIEXEC_PREFLAGS exe MPIEXEC_POSTFLAGS args
function(xpose_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;NP;TIMEOUT" "COMMAND;ARGS;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set(_exe ${T_COMMAND})
  if(TARGET ${T_COMMAND})
    set(_exe $<TARGET_FILE:${T_COMMAND}>)
  endif()
  add_test(NAME ${T_NAME}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${T_NP} ${XPOSE_MPIEXEC_OVERSUBSCRIBE}
            ${MPIEXEC_PREFLAGS} ${XPOSE_MPIEXEC_PREFLAGS} ${_exe} ${MPIEXEC_POSTFLAGS} ${T_ARGS})
  set_tests_properties(${T_NAME} PROPERTIES
    PROCESSORS ${T_NP} TIMEOUT ${T_TIMEOUT} LABELS "mpi;${T_LABELS}"
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_btl_vader_single_copy_mechanism=none")
endfunction()
