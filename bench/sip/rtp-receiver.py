"""
The SIP bench's callers' media sockets (bench/sip.ts starts this): N UDP sockets on 127.0.0.1,
each the media address of one SIPp call. Every RTP packet the agent sends is stamped by the
kernel as it arrives (SO_TIMESTAMPNS, wall clock, nanoseconds), so the times do not depend on
how soon this process runs on a loaded machine; each is answered with 20 ms of quiet PCMU, the
caller's side of the line. Prints the ports as one JSON line; when its stdin closes, prints
every packet's [arrival ns, sequence, timestamp, marker] per socket as one JSON line and exits.
"""

import json
import random
import selectors
import socket
import struct
import sys

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def main() -> None:
    count = int(sys.argv[1])
    selector = selectors.DefaultSelector()
    sockets = []
    for index in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        sock.bind(("127.0.0.1", 0))
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, index)
        sockets.append({"socket": sock, "packets": [], "sequence": random.randint(0, 65535), "timestamp": 0})
    selector.register(sys.stdin, selectors.EVENT_READ, -1)
    print(json.dumps([entry["socket"].getsockname()[1] for entry in sockets]), flush=True)
    quiet = bytes(random.choice((0xFE, 0xFF)) for _ in range(160))
    while True:
        for key, _ in selector.select():
            if key.data == -1:
                if sys.stdin.readline() == "":
                    print(json.dumps([entry["packets"] for entry in sockets]), flush=True)
                    return
                continue
            entry = sockets[key.data]
            while True:
                try:
                    data, ancillary, _, address = entry["socket"].recvmsg(2048, 64)
                except BlockingIOError:
                    break
                if len(data) < 12:
                    continue
                stamp = None
                for level, kind, value in ancillary:
                    if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                        seconds, nanoseconds = struct.unpack("qq", value[:16])
                        stamp = seconds * 1_000_000_000 + nanoseconds
                if stamp is None:
                    continue
                sequence, timestamp = struct.unpack("!HI", data[2:8])
                entry["packets"].append([stamp, sequence, timestamp, 1 if data[1] & 0x80 else 0])
                header = struct.pack("!BBHII", 0x80, 0, entry["sequence"] & 0xFFFF, entry["timestamp"] & 0xFFFFFFFF, 0x5EED)
                entry["sequence"] += 1
                entry["timestamp"] += 160
                entry["socket"].sendto(header + quiet, address)


if __name__ == "__main__":
    main()
