# XPOSE_PYTHON: the `xpose` Python module (python/). On by default where Python's headers,
# pybind11 and DLPack's header are found (Debian: python3-dev pybind11-dev libdlpack-dev).
if(NOT DEFINED Python_EXECUTABLE)
  # The interpreter the tests use (as tests/cli picks it): one with numpy, so that a python3
  # without it earlier on PATH (a bare virtual environment) is passed over.
  foreach(_xpose_candidate /usr/bin/python3 python3)
    find_program(_xpose_python_exe NAMES ${_xpose_candidate} NO_CACHE)
    if(_xpose_python_exe)
      execute_process(COMMAND ${_xpose_python_exe} -c "import numpy"
                      RESULT_VARIABLE _xpose_rc OUTPUT_QUIET ERROR_QUIET)
      if(_xpose_rc EQUAL 0)
        set(Python_EXECUTABLE ${_xpose_python_exe})
        break()
      endif()
    endif()
    unset(_xpose_python_exe)
  endforeach()
endif()
find_package(Python 3.8 COMPONENTS Interpreter Development.Module QUIET)
if(Python_FOUND)
  find_package(pybind11 2.6 CONFIG QUIET)
endif()
find_path(XPOSE_DLPACK_INCLUDE_DIR dlpack/dlpack.h DOC "Directory holding dlpack/dlpack.h")

if(Python_FOUND AND pybind11_FOUND AND XPOSE_DLPACK_INCLUDE_DIR)
  set(_xpose_python_default ON)
else()
  set(_xpose_python_default OFF)
endif()
option(XPOSE_PYTHON "Build the xpose Python module (pybind11)" ${_xpose_python_default})
if(XPOSE_PYTHON AND NOT _xpose_python_default)
  message(FATAL_ERROR
    "XPOSE_PYTHON needs Python's headers (found: ${Python_FOUND}), pybind11 (found: "
    "${pybind11_FOUND}) and dlpack/dlpack.h (found: ${XPOSE_DLPACK_INCLUDE_DIR}).\n"
    "On Debian/Ubuntu: apt-get install python3-dev pybind11-dev libdlpack-dev")
endif()
message(STATUS "xpose: Python module ${XPOSE_PYTHON} (${Python_EXECUTABLE})")
