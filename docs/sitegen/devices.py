"""What the ceilings need to know about a device beyond its measured peaks: how many multiply-adds
and how many bytes of local memory one compute unit serves per clock. These are properties of the
architecture, not measurements, so they come from this small table, each entry citing its source;
the device's architecture comes from its compiler report (lab/tuning/NAME-ptxas.txt: "for
'sm_90a'") or, failing that, from its name. A device without an entry gets no local-memory ceiling.
"""
import re

ARCHITECTURES = {
    "sm_90": {
        "name": "NVIDIA Hopper (compute capability 9.0)",
        # NVIDIA CUDA C++ Programming Guide, "Arithmetic Instructions", throughput table: 128 results
        # per clock per multiprocessor for 32-bit floating-point add, multiply, multiply-add (9.0)
        "fma_per_clock": 128,
        # CUDA C++ Programming Guide, "Shared Memory" of compute capability 9.0 (as 5.x and later): 32
        # banks, each serving one 32-bit word per clock to a warp: 128 bytes per clock per multiprocessor
        "local_bytes_per_clock": 128,
        # NVIDIA Hopper Tuning Guide, "L1 Data Cache and Shared Memory": one 256 KB unit per
        # multiprocessor serves both, so a load that hits L1 goes through the same 128 bytes per clock
        "l1_is_local": True,
        "source": "the CUDA C++ Programming Guide (throughput of 32-bit multiply-add; shared memory: 32 banks "
                  "of 4 bytes per clock) and the Hopper Tuning Guide (L1 and shared memory are one unit)",
    },
}

# Devices whose compiler report is not recorded: the architecture from the device's name
NAMED = [(re.compile(r"\b(H100|H200|GH200|H800|H20)\b"), "sm_90")]


def architecture(r, ptxas):
    """(key, entry) of results file r's architecture, or (None, None)."""
    report = ptxas.get(r.stem)
    if report:
        for step in report[1].values():
            m = re.match(r"(sm_\d+)", step.get("arch", ""))
            if m and m.group(1) in ARCHITECTURES:
                return m.group(1), ARCHITECTURES[m.group(1)]
    for pattern, key in NAMED:
        if pattern.search(r.device):
            return key, ARCHITECTURES[key]
    return None, None
