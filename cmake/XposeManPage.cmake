# cmake -DXPOSE=<xpose> -DHELP2MAN=<help2man> -DOUTPUT=<xpose.1> -P XposeManPage.cmake
# The man page: help2man on `xpose --help` (synopsis, commands, exit codes), with a section
# holding each command's own --help.
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)  # `xpose --help` starts MPI, as a singleton
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
get_filename_component(dir ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
set(include "[DESCRIPTION]\nDistributed, out-of-core transpose of matrices stored in HDF5. Run it under\n.B mpirun\nor\n.B srun\nwith one rank per GPU or per core; every rank reads a slab of input rows, the ranks exchange\ntransposed pieces, and every rank writes a contiguous band of output rows.\n\n[COMMAND OPTIONS]\n")
foreach(cmd transpose plan info generate verify)
  execute_process(COMMAND ${XPOSE} ${cmd} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${XPOSE} ${cmd} --help failed (${rc})")
  endif()
  string(FIND "${text}" "Exit codes:" cut)  # the exit codes have their own section
  if(cut GREATER 0)
    string(SUBSTRING "${text}" 0 ${cut} text)
  endif()
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" text "${text}")
  string(APPEND include ".SS ${cmd}\n.nf\n${text}.fi\n")
endforeach()
file(WRITE ${OUTPUT}.include "${include}")
execute_process(COMMAND ${HELP2MAN} --no-info --section 1 --name "distributed, out-of-core transpose of HDF5 matrices"
                        --include ${OUTPUT}.include --output ${OUTPUT} ${XPOSE}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${rc})")
endif()
