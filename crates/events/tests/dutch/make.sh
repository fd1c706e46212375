#!/bin/sh
# Regenerates the reference tournaments of this folder with bbpPairings' random tournament
# generator (FIDE Dutch 2025), then checks each with bbpPairings' own checker (-c).
# Usage: make.sh PATH/TO/bbpPairings.exe   (see README.md for the version used)
set -eu
bbp=$1
here=$(dirname "$0")
tmp=$(mktemp -d)
i=0
# Team counts cycle through 6..64; rounds from 3 up to about half the teams plus two (at most
# 11); draws 10..50 %; no forfeits, retirements or half-point byes (events have none).
while [ $i -lt 200 ]; do
    teams=$((6 + (i * 37) % 59))
    most=$((teams / 2 + 2)); [ $most -gt 11 ] && most=11
    rounds=$((3 + (i * 7) % (most - 2)))
    draws=$((10 + (i * 13) % 41))
    seed=$((1000 + i))
    name=$(printf 't%03d-%02dteams-%02drounds' "$i" "$teams" "$rounds")
    printf 'PlayersNumber=%s\nRoundsNumber=%s\nDrawPercentage=%s\nForfeitRate=1e30\nRetiredRate=1e30\nHalfPointByeRate=1e30\n' \
        "$teams" "$rounds" "$draws" > "$tmp/config"
    # A generated event can reach a round with no legal pairing: then the next seed (+1000).
    until "$bbp" --dutch -g "$tmp/config" -o "$tmp/out.trf" -s "$seed" 2> /dev/null; do
        seed=$((seed + 1000))
    done
    # One line per record, LF endings.
    tr '\r' '\n' < "$tmp/out.trf" | sed '/^$/d' > "$here/$name.trf"
    "$bbp" --dutch "$here/$name.trf" -c > "$tmp/check" 2>&1
    gzip -9 -n -f "$here/$name.trf"
    if grep -v -e ": Round #[0-9]*$" -e "^$" "$tmp/check" > /dev/null; then
        echo "$name: checker disagrees:"; cat "$tmp/check"; exit 1
    fi
    i=$((i + 1))
done
rm -r "$tmp"
