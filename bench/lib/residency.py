"""Which parts of a running executable are resident: /proc/PID/pagemap (its present
bit is readable by the process's owner) mapped against the ELF section
headers (`readelf -SW`), so a figure like "6.4 MiB of the executable" can be split into
text, relocation tables, symbol tables, Swift metadata and relocated (dirty) data."""
import collections
import os
import struct
import subprocess

PAGE = os.sysconf("SC_PAGE_SIZE")
# Fault-around maps up to this many bytes of already-cached pages around a file fault
# (mm/memory.c fault_around_bytes, 64 KiB unless changed in debugfs).
FAULT_AROUND = 64 * 1024


def sections(binary):
    """[(name, vaddr, size)] of the sections that occupy memory (SHF_ALLOC)."""
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True,
                         check=True).stdout
    result = []
    for line in out.splitlines():
        if "]" not in line or line.strip().startswith("[Nr]"):
            continue
        fields = line.split("]", 1)[1].split()
        if len(fields) < 7:
            continue
        name, addr, size, flags = fields[0], int(fields[2], 16), int(fields[4], 16), fields[6]
        if "A" in flags and size > 0 and name:
            result.append((name, addr, size))
    return result


def executable_mappings(pid):
    """[(start, end, perms, offset, path)] of the executable's mappings, followed by the
    anonymous mapping that holds the rest of its .bss, if there is one."""
    exe = os.path.realpath(f"/proc/{pid}/exe")
    maps = []
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            start, end = (int(x, 16) for x in parts[0].split("-"))
            path = parts[5].strip() if len(parts) > 5 else ""
            maps.append((start, end, parts[1], int(parts[2], 16), path))
    mine = [m for m in maps if m[4] == exe]
    if mine:
        last = max(m[1] for m in mine)
        mine += [m for m in maps if m[0] == last and m[4] == ""]
    return exe, mine


def present_pages(pid, start, end):
    """{page address: is anonymous (a private copy, i.e. written)} of resident pages."""
    result = {}
    with open(f"/proc/{pid}/pagemap", "rb") as f:
        f.seek(start // PAGE * 8)
        data = f.read((end - start) // PAGE * 8)
    for i, (entry,) in enumerate(struct.iter_unpack("<Q", data)):
        if entry >> 63 & 1:  # present in RAM
            result[start + i * PAGE] = not (entry >> 61 & 1)  # bit 61: file or shared anon
    return result


def report(pid, binary=None):
    """Lines describing the executable's resident pages by section."""
    exe, maps = executable_mappings(pid)
    binary = binary or exe
    if not maps:
        return [f"  (no mappings of {exe})"]
    base = min(m[0] for m in maps if m[3] == 0 and m[4])
    pages = {}
    for start, end, _, _, _ in maps:
        pages.update(present_pages(pid, start, end))
    secs = sections(binary)
    by_section = collections.OrderedDict()
    covered = set()
    for name, addr, size in secs:
        lo, hi = base + addr, base + addr + size
        resident = anon = 0
        page = lo - lo % PAGE
        while page < hi:
            if page in pages:
                overlap = min(hi, page + PAGE) - max(lo, page)
                resident += overlap
                if pages[page]:
                    anon += overlap
                covered.add(page)
            page += PAGE
        by_section[name] = (size, resident, anon)
    lines = [f"  the executable's resident pages by section ({len(pages) * PAGE // 1024} KiB "
             "in all; KiB of each section that lies on a resident page):",
             f"    {'section':<30} {'size':>8} {'resident':>9} {'written':>8}"]
    for name, (size, resident, anon) in by_section.items():
        if resident >= 1024 or size >= 64 * 1024:
            lines.append(f"    {name:<30} {size // 1024:8d} {resident // 1024:9d} "
                         f"{anon // 1024:8d}")
    other = len(set(pages) - covered) * PAGE // 1024
    if other:
        lines.append(f"    {'(beyond the sections: heap tail)':<30} {'':8} {other:9d}")
    # Fault-around maps whole aligned windows of cached pages: if nearly every window
    # that has a resident page is full, the touched set is smaller than what is resident.
    text = [(base + a, base + a + s) for n, a, s in secs if n == ".text"]
    if text:
        lo, hi = text[0]
        per = FAULT_AROUND // PAGE
        # The windows are aligned on virtual addresses (mm/memory.c do_fault_around).
        windows = collections.Counter(p // FAULT_AROUND for p in pages if lo <= p < hi)
        full = sum(1 for c in windows.values() if c == per)
        lines.append(f"    .text: {len(windows)} of {hi // FAULT_AROUND - lo // FAULT_AROUND + 1} "
                     f"{FAULT_AROUND // 1024} KiB windows have a resident page, {full} of "
                     f"them fully resident (fault-around maps whole windows)")
    return lines
