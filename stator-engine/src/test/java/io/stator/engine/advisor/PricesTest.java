package io.stator.engine.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.table.TableDefinition.TableClass;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The price table (prices.properties) and the month figures every dollar of the advisor comes
 * from, checked against the arithmetic of advisor.md, section 5.
 */
class PricesTest {

    private static final Prices PRICES = Prices.standard();
    private static final double CENT = 0.005;

    @Test
    void theFileLoadsDatedAndSourcedWithA730HourMonth() {
        assertEquals("2026-09-06", PRICES.date());
        assertEquals("us-east-1", PRICES.region());
        assertTrue(PRICES.sources().contains("2024-11-01"), PRICES.sources());
        assertEquals(730, PRICES.hoursPerMonth());
        assertEquals(2_628_000, PRICES.secondsPerMonth());
        assertEquals(2, PRICES.classes().size());
    }

    @Test
    void onDemandAndProvisionedMonthsOfAKnownRate() {
        // 100 writes of 1 KB a second for 2,628,000 s at $0.625 a million: $164.25; reads at $0.125: $32.85.
        assertEquals(164.25, PRICES.onDemandMonthly(TableClass.STANDARD, 0, 100), CENT);
        assertEquals(32.85, PRICES.onDemandMonthly(TableClass.STANDARD, 100, 0), CENT);
        // 100 WCU for 730 h at $0.00065: $47.45; 100 RCU at $0.00013: $9.49.
        assertEquals(47.45, PRICES.provisionedMonthly(TableClass.STANDARD, 0, 100), CENT);
        assertEquals(9.49, PRICES.provisionedMonthly(TableClass.STANDARD, 100, 0), CENT);
        // Standard-IA's throughput costs 25% more: $0.78125 a million writes.
        assertEquals(205.3125, PRICES.onDemandMonthly(TableClass.STANDARD_INFREQUENT_ACCESS, 0, 100), CENT);
        assertEquals(0.25, PRICES.storageMonthly(TableClass.STANDARD, 1e9), 1e-9);
        assertEquals(0.10, PRICES.storageMonthly(TableClass.STANDARD_INFREQUENT_ACCESS, 1e9), 1e-9);
    }

    @Test
    void provisionedPaysAbove28Point9PercentUtilisationForReadsAndWritesAlike() {
        // $0.00065 / (3,600 x $0.625 / 10^6) = 28.9%; $0.00013 / (3,600 x $0.125 / 10^6) the same.
        assertEquals(0.2889, PRICES.breakEvenUtilisation(TableClass.STANDARD, 0, 1), 1e-4);
        assertEquals(0.2889, PRICES.breakEvenUtilisation(TableClass.STANDARD, 1, 0), 1e-4);
    }

    @Test
    void standardInfrequentAccessPaysWhenStorageOutweighsTraffic() {
        // 1 write unit a second on demand ($1.64 a month on Standard) beside 100 GB ($25 on Standard,
        // $10 on Standard-IA): Standard-IA is cheaper, its throughput 25% dearer.
        CapacityModeFit.Usage storageHeavy = new CapacityModeFit.Usage(
                List.of(new CapacityModeFit.Rates(0, 1, 0, 1)), null, 100e9);
        double standard = CapacityModeFit.monthly(PRICES, storageHeavy, false, TableClass.STANDARD);
        double ia = CapacityModeFit.monthly(PRICES, storageHeavy, false, TableClass.STANDARD_INFREQUENT_ACCESS);
        assertEquals(1.6425 + 25, standard, CENT);
        assertEquals(1.6425 * 1.25 + 10, ia, CENT);
        // 1 GB beside the same traffic: storage is 15% of the throughput's cost, under the 41.7% it takes.
        CapacityModeFit.Usage trafficHeavy = new CapacityModeFit.Usage(
                List.of(new CapacityModeFit.Rates(0, 1, 0, 1)), null, 1e9);
        assertTrue(CapacityModeFit.monthly(PRICES, trafficHeavy, false, TableClass.STANDARD)
                < CapacityModeFit.monthly(PRICES, trafficHeavy, false, TableClass.STANDARD_INFREQUENT_ACCESS));
    }

    @Test
    void provisionedForAnOnDemandTableIsItsPeakOverAHalfTargetUtilisation() {
        // Peak 500 write units a second: 1,000 WCU provisioned (and the least read capacity, 1 RCU).
        CapacityModeFit.Usage usage = new CapacityModeFit.Usage(List.of(new CapacityModeFit.Rates(0, 300, 0, 500)),
                null, 0);
        assertEquals(474.50 + 0.0949, CapacityModeFit.monthly(PRICES, usage, true, TableClass.STANDARD), CENT);
        // A provisioned table is priced at what it has provisioned, whatever its traffic.
        CapacityModeFit.Usage provisioned = new CapacityModeFit.Usage(List.of(new CapacityModeFit.Rates(0, 300, 0, 500)),
                List.of(new double[] {10, 100}), 0);
        assertEquals(0.949 + 47.45, CapacityModeFit.monthly(PRICES, provisioned, true, TableClass.STANDARD), CENT);
    }
}
