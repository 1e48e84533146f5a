package xdiff

// split is xdl_split: it searches forward from the top-left corner and
// backward from the bottom-right at once for the middle snake of a
// shortest edit script, and, unless a minimal diff is needed, settles
// for a good-enough split once the cost grows past git's heuristics.
func split(ha1 []int, off1, lim1 int, ha2 []int, off2, lim2 int, k *kv, needMin bool) splitPoint {
	b := k.base
	kvdf := func(d int) *int { return &k.f[d+b] }
	kvdb := func(d int) *int { return &k.b[d+b] }
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	*kvdf(fmid) = off1
	*kvdb(bmid) = lim1
	for ec := 1; ; ec++ {
		gotSnake := false
		if fmin > dmin {
			fmin--
			*kvdf(fmin - 1) = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			*kvdf(fmax + 1) = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			var i1 int
			if *kvdf(d - 1) >= *kvdf(d + 1) {
				i1 = *kvdf(d - 1) + 1
			} else {
				i1 = *kvdf(d + 1)
			}
			prev1 := i1
			i2 := i1 - d
			for i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2] {
				i1, i2 = i1+1, i2+1
			}
			if i1-prev1 > snakeCnt {
				gotSnake = true
			}
			*kvdf(d) = i1
			if odd && bmin <= d && d <= bmax && *kvdb(d) <= i1 {
				return splitPoint{i1, i2, true, true}
			}
		}
		if bmin > dmin {
			bmin--
			*kvdb(bmin - 1) = lineMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			*kvdb(bmax + 1) = lineMax
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			var i1 int
			if *kvdb(d - 1) < *kvdb(d + 1) {
				i1 = *kvdb(d - 1)
			} else {
				i1 = *kvdb(d + 1) - 1
			}
			prev1 := i1
			i2 := i1 - d
			for i1 > off1 && i2 > off2 && ha1[i1-1] == ha2[i2-1] {
				i1, i2 = i1-1, i2-1
			}
			if prev1-i1 > snakeCnt {
				gotSnake = true
			}
			*kvdb(d) = i1
			if !odd && fmin <= d && d <= fmax && i1 <= *kvdf(d) {
				return splitPoint{i1, i2, true, true}
			}
		}
		if needMin {
			continue
		}
		if gotSnake && ec > heurMinCost {
			if s, ok := interesting(ha1, off1, lim1, ha2, off2, lim2, k, ec, fmin, fmax, bmin, bmax, fmid, bmid); ok {
				return s
			}
		}
		if ec >= k.mxcost {
			return furthest(off1, lim1, off2, lim2, k, fmin, fmax, bmin, bmax)
		}
	}
}

// interesting samples the diagonals for a path far from both corners that
// ends in a snake of XDL_SNAKE_CNT lines, forward first, then backward.
func interesting(ha1 []int, off1, lim1 int, ha2 []int, off2, lim2 int, k *kv, ec, fmin, fmax, bmin, bmax, fmid, bmid int) (splitPoint, bool) {
	b := k.base
	best, s := 0, splitPoint{}
	for d := fmax; d >= fmin; d -= 2 {
		dd := abs(d - fmid)
		i1 := k.f[d+b]
		i2 := i1 - d
		v := (i1 - off1) + (i2 - off2) - dd
		if v > kHeur*ec && v > best && off1+snakeCnt <= i1 && i1 < lim1 && off2+snakeCnt <= i2 && i2 < lim2 {
			for n := 1; ha1[i1-n] == ha2[i2-n]; n++ {
				if n == snakeCnt {
					best, s = v, splitPoint{i1: i1, i2: i2}
					break
				}
			}
		}
	}
	if best > 0 {
		s.minLo, s.minHi = true, false
		return s, true
	}
	for d := bmax; d >= bmin; d -= 2 {
		dd := abs(d - bmid)
		i1 := k.b[d+b]
		i2 := i1 - d
		v := (lim1 - i1) + (lim2 - i2) - dd
		if v > kHeur*ec && v > best && off1 < i1 && i1 <= lim1-snakeCnt && off2 < i2 && i2 <= lim2-snakeCnt {
			for n := 0; ha1[i1+n] == ha2[i2+n]; n++ {
				if n == snakeCnt-1 {
					best, s = v, splitPoint{i1: i1, i2: i2}
					break
				}
			}
		}
	}
	if best > 0 {
		s.minLo, s.minHi = false, true
		return s, true
	}
	return s, false
}

// furthest is the give-up split: the furthest-reaching path by i1+i2.
func furthest(off1, lim1, off2, lim2 int, k *kv, fmin, fmax, bmin, bmax int) splitPoint {
	b := k.base
	fbest, fbest1 := -1, -1
	for d := fmax; d >= fmin; d -= 2 {
		i1 := min(k.f[d+b], lim1)
		i2 := i1 - d
		if lim2 < i2 {
			i1, i2 = lim2+d, lim2
		}
		if fbest < i1+i2 {
			fbest, fbest1 = i1+i2, i1
		}
	}
	bbest, bbest1 := lineMax, lineMax
	for d := bmax; d >= bmin; d -= 2 {
		i1 := max(off1, k.b[d+b])
		i2 := i1 - d
		if i2 < off2 {
			i1, i2 = off2+d, off2
		}
		if i1+i2 < bbest {
			bbest, bbest1 = i1+i2, i1
		}
	}
	if (lim1+lim2)-bbest < fbest-(off1+off2) {
		return splitPoint{fbest1, fbest - fbest1, true, false}
	}
	return splitPoint{bbest1, bbest - bbest1, false, true}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
