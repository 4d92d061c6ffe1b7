// A connection's remembered row ids and their leaf pages: kept with the data version they were
// found at, let go when another version is remembered, one at a time when a read by one fails,
// all when the table is full.

import Testing
@testable import TileProviders

@Suite struct RememberedRowIDsTests {
    @Test func rowsAreKeptWithTheVersionTheyWereFoundAt() {
        let remembered = RememberedRowIDs()
        #expect(remembered.rowID(for: 7) == nil)
        remembered.remember(70, in: 12, for: 7, dataVersion: 3)
        remembered.remember(80, for: 8, dataVersion: 3)
        #expect(remembered.rowID(for: 7)?.row == 70 && remembered.rowID(for: 7)?.version == 3)
        #expect(remembered.rowID(for: 7)?.leaf == 12 && remembered.rowID(for: 8)?.leaf == 0, "with the leaf it was in, if known")
        #expect(remembered.count == 2)
        // Its leaf learnt later (a row read through SQLite first, then straight from the file).
        remembered.remember(80, in: 13, for: 8, dataVersion: 3)
        #expect(remembered.rowID(for: 8)?.leaf == 13 && remembered.rowID(for: 7)?.leaf == 12 && remembered.rowID(for: 8)?.row == 80)
        // A row found at another version: those of the old one are let go.
        remembered.remember(90, for: 9, dataVersion: 4)
        #expect(remembered.rowID(for: 7) == nil && remembered.rowID(for: 8) == nil)
        #expect(remembered.rowID(for: 9)?.row == 90 && remembered.rowID(for: 9)?.version == 4)
    }

    @Test func aFailedReadForgetsItsRowAndAChangedFileAll() {
        let remembered = RememberedRowIDs()
        remembered.remember(70, for: 7, dataVersion: 1)
        remembered.remember(80, for: 8, dataVersion: 1)
        remembered.forget(7)
        #expect(remembered.rowID(for: 7) == nil && remembered.rowID(for: 8)?.row == 80)
        remembered.removeAll()
        #expect(remembered.count == 0)
    }

    @Test func aFullTableStartsOver() {
        let remembered = RememberedRowIDs()
        for key in 0 ..< RememberedRowIDs.capacity { remembered.remember(Int64(key), for: key, dataVersion: 1) }
        #expect(remembered.count == RememberedRowIDs.capacity)
        remembered.remember(-1, for: -1, dataVersion: 1)
        #expect(remembered.count == 1 && remembered.rowID(for: -1)?.row == -1 && remembered.rowID(for: 0) == nil)
    }
}
