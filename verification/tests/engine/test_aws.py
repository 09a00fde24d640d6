"""The AWS provider against botocore's Stubber: the real service models check every request and answer."""

from datetime import date

import boto3
import pytest
from botocore.stub import ANY, Stubber

from verification.engine.aws import AwsProvider, is_retryable, parse_mrz
from verification.engine.errors import FaceComparisonFailed, OcrFailed


def _client(service: str):
    return boto3.session.Session().client(
        service, region_name="eu-west-1", aws_access_key_id="testing", aws_secret_access_key="testing"
    )


@pytest.fixture
def aws():
    textract, rekognition = _client("textract"), _client("rekognition")
    with Stubber(textract) as textract_stub, Stubber(rekognition) as rekognition_stub:
        provider = AwsProvider(region="eu-west-1", textract=textract, rekognition=rekognition)
        yield provider, textract_stub, rekognition_stub
        textract_stub.assert_no_pending_responses()
        rekognition_stub.assert_no_pending_responses()


def _field(kind: str, text: str, confidence: float, normalized: str | None = None) -> dict:
    detection = {"Text": text, "Confidence": confidence}
    if normalized:
        detection["NormalizedValue"] = {"Value": normalized, "ValueType": "Date"}
    return {"Type": {"Text": kind, "Confidence": 99.0}, "ValueDetection": detection}


ANALYZE_ID = {
    "IdentityDocuments": [
        {
            "DocumentIndex": 1,
            "IdentityDocumentFields": [
                _field("FIRST_NAME", "BARACK", 98.0),
                _field("LAST_NAME", "OBAMA", 96.0),
                _field("DOCUMENT_NUMBER", "6108041234567", 94.0),
                _field("DATE_OF_BIRTH", "04.08.1961", 90.0, "1961-08-04T00:00:00"),
                _field("EXPIRATION_DATE", "31 JAN 2030", 92.0),
                _field(
                    "MRZ_CODE",
                    "IDSWZ6108041234567<<<<<<<<<<<\n6108041M3001314SWZ<<<<<<<<<<<6\nOBAMA<<BARACK<<<<<",
                    88.0,
                ),
            ],
        }
    ],
    "DocumentMetadata": {"Pages": 1},
    "AnalyzeIDModelVersion": "1.0",
}


def test_analyze_id_fields_map_to_the_ocr_result(aws, obama_card):
    provider, textract, _ = aws
    textract.add_response("analyze_id", ANALYZE_ID, {"DocumentPages": [{"Bytes": obama_card}]})
    result = provider.extract_text(obama_card)
    fields = result.fields
    assert (fields.first_name, fields.last_name, fields.id_number) == ("Barack", "Obama", "6108041234567")
    assert (fields.date_of_birth, fields.expiry_date) == (date(1961, 8, 4), date(2030, 1, 31))
    assert (fields.sex, fields.nationality) == ("MALE", "SWZ")
    assert result.complete and result.issues == ()
    assert result.field_confidence["firstName"] == 98.0
    assert result.field_confidence["dateOfBirth"] == 90.0
    assert result.confidence == pytest.approx((98 + 96 + 94 + 90 + 92 + 88 + 88) / 7)


def test_the_back_goes_as_a_second_page(aws, obama_card):
    provider, textract, _ = aws
    back = obama_card
    textract.add_response(
        "analyze_id", {"IdentityDocuments": [], "DocumentMetadata": {"Pages": 2}}, {"DocumentPages": [ANY, ANY]}
    )
    result = provider.extract_text(obama_card, back)
    assert not result.complete
    assert result.confidence == 0
    assert "idNumber not found" in result.issues


def test_a_textract_error_is_an_ocr_failure(aws, obama_card):
    provider, textract, _ = aws
    textract.add_client_error("analyze_id", "ProvisionedThroughputExceededException", "Slow down")
    with pytest.raises(OcrFailed, match="^OCR extraction failed: .*ProvisionedThroughputExceededException") as error:
        provider.extract_text(obama_card)
    assert error.value.retryable  # throttled: the same call may succeed later


def test_a_document_textract_cannot_read_is_not_retryable(aws, obama_card):
    provider, textract, _ = aws
    textract.add_client_error("analyze_id", "UnsupportedDocumentException", "not a document", http_status_code=400)
    with pytest.raises(OcrFailed) as error:
        provider.extract_text(obama_card)
    assert not error.value.retryable


def test_a_service_failure_is_retryable(aws, obama_card, obama_selfie):
    provider, textract, rekognition = aws
    textract.add_client_error("analyze_id", "InternalServerError", "oops", http_status_code=500)
    with pytest.raises(OcrFailed) as ocr_error:
        provider.extract_text(obama_card)
    assert ocr_error.value.retryable
    rekognition.add_client_error("compare_faces", "SomethingNew", "unavailable", http_status_code=503)
    with pytest.raises(FaceComparisonFailed) as face_error:
        provider.compare_faces(obama_card, obama_selfie)
    assert face_error.value.retryable


@pytest.mark.parametrize(
    ("error", "retryable"),
    [
        ("EndpointConnectionError", True),
        ("ConnectTimeoutError", True),
        ("ReadTimeoutError", True),
        ("ConnectionClosedError", True),
        ("NoCredentialsError", False),
        ("ParamValidationError", False),
    ],
)
def test_connection_errors_are_retryable_and_configuration_errors_are_not(error, retryable):
    from botocore import exceptions

    kwargs = {"endpoint_url": "https://textract.af-south-1.amazonaws.com", "report": "bad"}
    assert is_retryable(getattr(exceptions, error)(**kwargs)) is retryable


def _face(left, top, width, height, confidence=99.9, brightness=None, sharpness=None) -> dict:
    face = {"BoundingBox": {"Left": left, "Top": top, "Width": width, "Height": height}, "Confidence": confidence}
    if brightness is not None:
        face["Quality"] = {"Brightness": brightness, "Sharpness": sharpness}
    return face


def test_compare_faces_uses_the_largest_selfie_face_and_pixel_boxes(aws, obama_card, obama_selfie):
    provider, _, rekognition = aws
    rekognition.add_response(
        "compare_faces",
        {
            "SourceImageFace": _face(0.05, 0.25, 0.1, 0.15, confidence=99.5),
            "FaceMatches": [
                {"Similarity": 12.0, "Face": _face(0.0, 0.0, 0.1, 0.1)},
                {"Similarity": 97.5, "Face": _face(0.25, 0.2, 0.5, 0.4, confidence=99.8, brightness=70, sharpness=80)},
            ],
            "UnmatchedFaces": [],
        },
        {"SourceImage": {"Bytes": obama_card}, "TargetImage": {"Bytes": obama_selfie}, "SimilarityThreshold": 0},
    )
    result = provider.compare_faces(obama_card, obama_selfie)
    assert result.similarity == 97.5
    assert result.confidence == 99.5
    assert result.distance is None and result.source_embedding is None
    assert (result.source_face.box.left, result.source_face.box.width) == (50, 100)  # card is 1000 px wide
    assert result.target_face.sharpness == 80 and result.target_face.brightness == 70


def test_no_face_found_by_rekognition_is_a_comparison_failure(aws, obama_card, obama_selfie):
    provider, _, rekognition = aws
    rekognition.add_client_error("compare_faces", "InvalidParameterException", "There are no faces in the image.")
    with pytest.raises(FaceComparisonFailed, match="no face was found"):
        provider.compare_faces(obama_card, obama_selfie)
    rekognition.add_response("compare_faces", {"SourceImageFace": _face(0.1, 0.1, 0.2, 0.2), "FaceMatches": []})
    with pytest.raises(FaceComparisonFailed, match="in the selfie"):
        provider.compare_faces(obama_card, obama_selfie)


def test_a_rekognition_error_is_a_comparison_failure(aws, obama_card, obama_selfie):
    provider, _, rekognition = aws
    rekognition.add_client_error("compare_faces", "AccessDeniedException", "not allowed", http_status_code=403)
    with pytest.raises(FaceComparisonFailed, match="AccessDeniedException") as error:
        provider.compare_faces(obama_card, obama_selfie)
    assert not error.value.retryable


def test_detect_faces_feeds_the_quality_gate_on_aws_scales(aws, obama_selfie):
    provider, _, rekognition = aws
    expected = {"Image": {"Bytes": obama_selfie}, "Attributes": ["DEFAULT"]}
    rekognition.add_response(
        "detect_faces", {"FaceDetails": [_face(0.2, 0.2, 0.5, 0.4, brightness=75, sharpness=60)]}, expected
    )
    assert provider.check_quality(obama_selfie, role="selfie").passed
    rekognition.add_response(
        "detect_faces", {"FaceDetails": [_face(0.2, 0.2, 0.5, 0.4, brightness=10, sharpness=5)]}, expected
    )
    report = provider.check_quality(obama_selfie, role="selfie")
    assert [issue.code for issue in report.issues] == ["TOO_BLURRY", "TOO_DARK"]
    assert report.issues[1].message == "The selfie is too dark: take it facing a light."


def test_two_confident_faces_and_a_doubtful_one(aws, obama_selfie):
    provider, _, rekognition = aws
    faces = [
        _face(0.0, 0.0, 0.5, 0.4, brightness=75, sharpness=60),
        _face(0.5, 0.0, 0.4, 0.4, brightness=75, sharpness=60),
        _face(0.1, 0.8, 0.05, 0.05, confidence=50.0, brightness=75, sharpness=60),
    ]
    rekognition.add_response("detect_faces", {"FaceDetails": faces})
    report = provider.check_quality(obama_selfie, role="selfie")
    assert [issue.code for issue in report.issues] == ["MULTIPLE_FACES"]
    assert len(report.faces) == 2


def test_no_face_on_aws_names_the_id_photo(aws, obama_card):
    provider, _, rekognition = aws
    rekognition.add_response("detect_faces", {"FaceDetails": []})
    report = provider.check_quality(obama_card, role="idFront")
    assert report.issues[0].message.startswith("No face was found in the ID photo")


def test_the_back_is_checked_locally_and_embeddings_are_not_offered(aws, obama_card):
    provider, _, _ = aws
    assert provider.check_quality(obama_card, role="idBack").passed  # no stubbed call: nothing sent
    assert provider.embed_face(obama_card) is None


def test_a_detect_faces_error_is_a_comparison_failure(aws, obama_selfie):
    provider, _, rekognition = aws
    rekognition.add_client_error("detect_faces", "ThrottlingException", "slow down")
    with pytest.raises(FaceComparisonFailed, match="ThrottlingException") as error:
        provider.check_quality(obama_selfie, role="selfie")
    assert error.value.retryable


def test_versions_and_thresholds_are_recorded():
    provider = AwsProvider(region="eu-west-1")
    assert provider.versions()["region"] == "eu-west-1"
    assert provider.thresholds()["compare_similarity_threshold"] == 0.0


def test_parse_mrz_reads_sex_and_nationality_of_td1_and_td3():
    td1 = "IDSWZ6108041234567<<<<<<<<<<<\n6108041M3001314SWZ<<<<<<<<<<<6\nOBAMA<<BARACK<<<<<<<<<<<<<<<<"
    assert parse_mrz(td1) == ("MALE", "SWZ")
    td3 = "P<ZAFDLAMINI<<SIPHO<<<<<<<<<<<<<<<<<<<<<<<<<\nA012345678ZAF8002015F3001314<<<<<<<<<<<<<<06"
    assert parse_mrz(td3) == ("FEMALE", "ZAF")
