# Finds what the tutorial builds against. OpenCL is required; the rest is optional and only
# switches features on: a CPU BLAS (faster reference, CPU peer), CLBlast (OpenCL peer),
# the CUDA toolkit's cuBLAS (CUDA peer).

find_package(OpenCL REQUIRED)

# CPU BLAS with the CBLAS interface (OpenBLAS on Debian: libopenblas-dev)
find_path(GEMM_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas x86_64-linux-gnu/openblas-pthread)
find_library(GEMM_CBLAS_LIBRARY NAMES openblas cblas blas PATH_SUFFIXES openblas-pthread)
if(GEMM_CBLAS_INCLUDE_DIR AND GEMM_CBLAS_LIBRARY)
  include(CheckSymbolExists)
  set(CMAKE_REQUIRED_INCLUDES ${GEMM_CBLAS_INCLUDE_DIR})
  set(CMAKE_REQUIRED_LIBRARIES ${GEMM_CBLAS_LIBRARY})
  check_symbol_exists(cblas_dgemm cblas.h GEMM_HAVE_CBLAS)
  unset(CMAKE_REQUIRED_INCLUDES)
  unset(CMAKE_REQUIRED_LIBRARIES)
endif()
if(GEMM_HAVE_CBLAS)
  add_library(gemm_cblas INTERFACE)
  target_include_directories(gemm_cblas INTERFACE ${GEMM_CBLAS_INCLUDE_DIR})
  target_link_libraries(gemm_cblas INTERFACE ${GEMM_CBLAS_LIBRARY})
  target_compile_definitions(gemm_cblas INTERFACE GEMM_HAVE_CBLAS=1)
  message(STATUS "CPU BLAS: ${GEMM_CBLAS_LIBRARY} (reference via dgemm, CPU peer)")
else()
  message(STATUS "CPU BLAS: not found (portable reference loop; no CPU peer)")
endif()

# CLBlast (Debian: libclblast-dev)
find_package(CLBlast CONFIG QUIET)
if(CLBlast_FOUND)
  message(STATUS "CLBlast: found (OpenCL peer)")
else()
  message(STATUS "CLBlast: not found (no OpenCL library peer)")
endif()

# cuBLAS from the CUDA toolkit: optional, only a peer for the benchmark
find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND AND TARGET CUDA::cublas)
  message(STATUS "cuBLAS: found in CUDA ${CUDAToolkit_VERSION} (CUDA peer)")
else()
  message(STATUS "cuBLAS: not found (no CUDA peer)")
endif()

# Warnings for everything we compile
add_library(gemm_warnings INTERFACE)
target_compile_options(gemm_warnings INTERFACE -Wall -Wextra $<$<BOOL:${GEMM_WERROR}>:-Werror>)
if(GEMM_SANITIZE)
  target_compile_options(gemm_warnings INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=all
                                                 -fno-omit-frame-pointer)
  target_link_options(gemm_warnings INTERFACE -fsanitize=address,undefined)
endif()
