import Testing
@testable import TileImagery

/// `/vsis3/` settings from `server.s3` over the AWS variables, and secrets kept out of messages.
struct ObjectStoreTests {
    func options(_ settings: ObjectStoreSettings, _ environment: [String: String]) -> [String: String] {
        Dictionary(settings.gdalOptions(environment: environment), uniquingKeysWith: { $1 })
    }

    @Test func endpointFromTheEnvironmentMeansPathStyle() {
        let got = options(ObjectStoreSettings(), ["AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9000", "AWS_ENDPOINT_URL": "https://other",
                                                  "AWS_REGION": "eu-west-3", "AWS_ACCESS_KEY_ID": "AKIA"])
        #expect(got["AWS_S3_ENDPOINT"] == "127.0.0.1:9000" && got["AWS_HTTPS"] == "NO")
        #expect(got["AWS_VIRTUAL_HOSTING"] == "FALSE" && got["AWS_REGION"] == "eu-west-3" && got["AWS_NO_SIGN_REQUEST"] == "NO")
        #expect(options(ObjectStoreSettings(), ["AWS_ENDPOINT_URL": "https://minio.example.org"])["AWS_S3_ENDPOINT"] == "minio.example.org")
    }

    @Test func configurationWinsOverTheEnvironment() {
        let got = options(ObjectStoreSettings(endpoint: "https://r2.example.com", region: "auto", pathStyle: false),
                          ["AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9000", "AWS_REGION": "eu-west-3"])
        #expect(got["AWS_S3_ENDPOINT"] == "r2.example.com" && got["AWS_HTTPS"] == "YES")
        #expect(got["AWS_VIRTUAL_HOSTING"] == "TRUE" && got["AWS_REGION"] == "auto")
        #expect(got["CPL_AWS_AUTODETECT_EC2"] == "NO")
    }

    @Test func withoutAnEndpointAWSItselfVirtualHosted() {
        let got = options(ObjectStoreSettings(), [:])
        #expect(got["AWS_S3_ENDPOINT"] == nil && got["AWS_VIRTUAL_HOSTING"] == "TRUE")
    }

    @Test func signedPartsAreRedacted() {
        let text = "GET /b/k?X-Amz-Credential=AKIA123%2F2024&X-Amz-Signature=deadbeef&x=1 Authorization: AWS4-HMAC-SHA256 Credential=AKIA9/x, Signature=abc"
        let redacted = SecretRedaction.redact(text)
        for secret in ["AKIA123", "deadbeef", "AKIA9", "abc"] { #expect(!redacted.contains(secret), "\(redacted)") }
        #expect(redacted.contains("x=1"))
    }

    @Test(arguments: ["s3://bucket", "s3:///key", "s3://bucket/", "ftp://x/y", "/local.tif"])
    func badURLsAreNotLocations(url: String) {
        #expect(RasterLocation(url: url) == nil)
    }

    @Test func locationsOpenThroughGDALsFileSystems() {
        #expect(RasterLocation(url: "s3://b/a/k.tif")?.gdalName == "/vsis3/b/a/k.tif")
        #expect(RasterLocation(url: "https://h/x.tif")?.gdalName == "/vsicurl/https://h/x.tif")
    }
}
