// A connection's remembered row ids and where their values lay: kept with the data version they were
// found at, let go when another version is remembered, one at a time when a read by one fails,
// all when the table is full.

import CSQLiteNoWait
import Testing
@testable import TileProviders

@Suite struct RememberedRowIDsTests {
    @Test func rowsAreKeptWithTheVersionTheyWereFoundAt() {
        let remembered = RememberedRowIDs()
        #expect(remembered.rowID(for: 7) == nil)
        let seven = CSQLiteNoWaitPlace(leaf: 12, overflow: 30, overflow_pages: 9)
        remembered.remember(70, at: seven, for: 7, dataVersion: 3)
        remembered.remember(80, for: 8, dataVersion: 3)
        #expect(remembered.rowID(for: 7)?.row == 70 && remembered.rowID(for: 7)?.version == 3)
        #expect(remembered.rowID(for: 7)?.place.isSame(as: seven) == true, "with where its value lay, if known")
        #expect(remembered.rowID(for: 8)?.place.isSame(as: CSQLiteNoWaitPlace()) == true)
        #expect(remembered.count == 2)
        // Its place learnt later (a row read through SQLite first, then straight from the file).
        let eight = CSQLiteNoWaitPlace(leaf: 13, overflow: 0, overflow_pages: 0)
        remembered.remember(80, at: eight, for: 8, dataVersion: 3)
        #expect(remembered.rowID(for: 8)?.place.isSame(as: eight) == true && remembered.rowID(for: 7)?.place.isSame(as: seven) == true)
        #expect(remembered.rowID(for: 8)?.row == 80)
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
